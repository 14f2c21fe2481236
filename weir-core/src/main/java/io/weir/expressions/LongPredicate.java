package io.weir.expressions;

import io.weir.data.BinaryRow;
import io.weir.types.Field;

import java.util.Arrays;
import java.util.List;

/**
 * A predicate on BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, DATE, TIME or DECIMAL(p &lt;= 18): the
 * slot is read as a long (DECIMAL: the unscaled value, at the column's scale like the literals).
 */
final class LongPredicate extends OrderedPredicate {
    private final int width;
    private final long[] values;

    LongPredicate(Operation op, int pos, Field field, List<Object> literals) {
        super(op, pos, field, literals);
        this.width =
                switch (field.type().root()) {
                    case BOOLEAN -> 0;
                    case TINYINT -> 1;
                    case SMALLINT -> 2;
                    case INT, DATE, TIME -> 4;
                    default -> 8;
                };
        this.values = new long[literals.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (Long) Literals.toDomain(literals.get(i), field.type());
        }
    }

    private long read(BinaryRow row) {
        return switch (width) {
            case 0 -> row.getBoolean(pos) ? 1L : 0L;
            case 1 -> row.getByte(pos);
            case 2 -> row.getShort(pos);
            case 4 -> row.getInt(pos);
            default -> row.getLong(pos);
        };
    }

    @Override
    int compareRow(BinaryRow row, int i) {
        return Long.compare(read(row), values[i]);
    }

    @Override
    int compareBound(Object bound, int i) {
        return Long.compare((Long) bound, values[i]);
    }

    @Override
    boolean contains(BinaryRow row) {
        return Arrays.binarySearch(values, read(row)) >= 0;
    }
}
