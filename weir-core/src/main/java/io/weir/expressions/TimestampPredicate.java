package io.weir.expressions;

import io.weir.data.BinaryRow;
import io.weir.data.Timestamp;
import io.weir.types.Field;
import io.weir.util.LittleEndian;

import java.util.List;

/**
 * A predicate on TIMESTAMP or TIMESTAMP_LTZ: compares (epoch millis, nano of millisecond) read in
 * place, from the slot when p &lt;= 3 (nanos 0) or from the variable part.
 */
final class TimestampPredicate extends OrderedPredicate {
    private final boolean compact;
    private final long[] millis;
    private final int[] nanos;

    TimestampPredicate(Operation op, int pos, Field field, List<Object> literals) {
        super(op, pos, field, literals);
        this.compact = field.type().isFixedLength();
        this.millis = new long[literals.size()];
        this.nanos = new int[literals.size()];
        for (int i = 0; i < millis.length; i++) {
            Timestamp t = (Timestamp) literals.get(i);
            millis[i] = t.millis();
            nanos[i] = t.nanoOfMillisecond();
        }
    }

    @Override
    int compareRow(BinaryRow row, int i) {
        long slot = row.getLong(pos);
        if (compact) {
            int c = Long.compare(slot, millis[i]);
            return c != 0 ? c : -Integer.signum(nanos[i]);
        }
        long m = LittleEndian.getLong(row.bytes(), row.offset() + (int) (slot >>> 32));
        int c = Long.compare(m, millis[i]);
        return c != 0 ? c : Integer.compare((int) slot, nanos[i]);
    }

    @Override
    int compareBound(Object bound, int i) {
        Timestamp t = (Timestamp) bound;
        int c = Long.compare(t.millis(), millis[i]);
        return c != 0 ? c : Integer.compare(t.nanoOfMillisecond(), nanos[i]);
    }
}
