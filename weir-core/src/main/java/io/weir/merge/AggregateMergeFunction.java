package io.weir.merge;

import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.types.DataType;

/**
 * The {@code aggregation} engine: key fields are kept, every other field is folded by its {@link
 * FieldAggregator}. A retraction (-U or -D) retracts its values from the aggregates that can; the
 * key stays. The result is always an insert.
 */
final class AggregateMergeFunction implements MergeFunction {
    private final DataType[] types;

    /** Null at key positions. */
    private final FieldAggregator[] aggregators;

    private final boolean records;
    private final AccumulatorRows acc;

    AggregateMergeFunction(Schema schema, FieldAggregator[] aggregators, boolean records) {
        this.types = new DataType[aggregators.length];
        for (int i = 0; i < types.length; i++) {
            types[i] = schema.rowType().type(i);
        }
        this.aggregators = aggregators;
        this.records = records;
        this.acc = new AccumulatorRows(aggregators.length);
    }

    @Override
    public void reset() {
        acc.clear();
    }

    @Override
    public void add(BinaryRow row) {
        BinaryRow old = acc.current();
        boolean retract = records && RowKind.isRetraction(row.bytes()[row.offset()]);
        BinaryRowWriter out = acc.start();
        for (int pos = 0; pos < aggregators.length; pos++) {
            FieldAggregator a = aggregators[pos];
            if (a == null) {
                out.copy(pos, row, pos, types[pos]);
            } else {
                a.aggregate(out, old, row, retract, records);
            }
        }
        acc.finish();
    }

    @Override
    public BinaryRow result() {
        return acc.current();
    }

    @Override
    public boolean resultStaysValid() {
        return false;
    }
}
