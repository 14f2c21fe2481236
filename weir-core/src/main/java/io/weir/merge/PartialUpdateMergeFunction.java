package io.weir.merge;

import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.types.DataType;
import io.weir.types.RowType;

import java.util.List;

/**
 * The {@code partial-update} engine. A field outside any sequence group takes each record's value
 * if it is not null. A sequence group takes all its fields (nulls included) from a record whose
 * sequence fields are not all null and not less than the key's (ties: the later record); a
 * retraction that passes the same test sets the group's other fields to null and keeps its
 * sequence. Both rules are associative, so folding in the writer, at compaction or on read gives
 * the same row. Retractions without sequence groups are refused at write ({@link
 * MergeFunctions#retractionRefusal}). The result is always an insert: a key is never removed.
 */
final class PartialUpdateMergeFunction implements MergeFunction {
    private final DataType[] types;
    private final boolean[] key;

    /** The group of each field, or -1. */
    private final int[] groupOf;

    private final SequenceGroup[] groups;
    private final boolean[] groupTakes;
    private final AccumulatorRows acc;

    PartialUpdateMergeFunction(Schema schema, List<SequenceGroup> groups) {
        RowType rowType = schema.rowType();
        this.types = new DataType[rowType.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = rowType.type(i);
        }
        this.key = new boolean[types.length];
        for (int pos : schema.primaryKeyPositions()) {
            key[pos] = true;
        }
        this.groups = groups.toArray(new SequenceGroup[0]);
        this.groupOf = new int[types.length];
        java.util.Arrays.fill(groupOf, -1);
        for (int g = 0; g < this.groups.length; g++) {
            for (int pos : this.groups[g].positions()) {
                groupOf[pos] = g;
            }
        }
        this.groupTakes = new boolean[this.groups.length];
        this.acc = new AccumulatorRows(types.length);
    }

    @Override
    public void reset() {
        acc.clear();
    }

    @Override
    public void add(BinaryRow row) {
        BinaryRow old = acc.current();
        boolean retract = RowKind.isRetraction(row.bytes()[row.offset()]);
        for (int g = 0; g < groups.length; g++) {
            groupTakes[g] = takes(groups[g], row, old);
        }
        BinaryRowWriter out = acc.start();
        for (int pos = 0; pos < types.length; pos++) {
            int g = groupOf[pos];
            BinaryRow from;
            if (key[pos]) {
                from = row;
            } else if (g >= 0) {
                if (!groupTakes[g]) {
                    from = old;
                } else if (retract && !isSequenceField(groups[g], pos)) {
                    out.setNullAt(pos);
                    continue;
                } else {
                    from = row;
                }
            } else if (!retract && !row.isNullAt(pos)) {
                from = row;
            } else {
                from = old;
            }
            if (from == null) {
                out.setNullAt(pos);
            } else {
                out.copy(pos, from, pos, types[pos]);
            }
        }
        acc.finish();
    }

    /** Whether the record updates the group: see the class comment. */
    private static boolean takes(SequenceGroup group, BinaryRow row, BinaryRow old) {
        if (allNull(row, group.sequencePositions())) {
            return false;
        }
        return old == null
                || allNull(old, group.sequencePositions())
                || group.sequence().compare(row, old) >= 0;
    }

    private static boolean allNull(BinaryRow row, int[] positions) {
        for (int pos : positions) {
            if (!row.isNullAt(pos)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSequenceField(SequenceGroup group, int pos) {
        for (int p : group.sequencePositions()) {
            if (p == pos) {
                return true;
            }
        }
        return false;
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
