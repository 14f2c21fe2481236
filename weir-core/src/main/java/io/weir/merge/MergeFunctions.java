package io.weir.merge;

import io.weir.TableMetadata;
import io.weir.data.KeyFields;
import io.weir.exceptions.ValidationException;
import io.weir.types.RowType;

/** Creates the {@link MergeFunction} of a table's {@code merge-engine}: the one place that does. */
public final class MergeFunctions {
    private MergeFunctions() {}

    /**
     * The merge function of a keyed table.
     *
     * @param rowsStayValid whether the rows given to {@link MergeFunction#add} stay valid until the
     *     next key (rows in a sort buffer's pages); otherwise the function copies what it keeps
     */
    public static MergeFunction create(TableMetadata metadata, boolean rowsStayValid) {
        RowType rowType = metadata.schema().rowType();
        switch (metadata.options().mergeEngine()) {
            case DEDUPLICATE:
                return new DeduplicateMergeFunction(
                        sequenceField(metadata), rowType.size(), rowsStayValid);
            default:
                throw new IllegalStateException(
                        "Unknown merge engine " + metadata.options().mergeEngine());
        }
    }

    /**
     * The {@code deduplicate} function on its own, for benchmarks and tests of the callers.
     *
     * @param sequenceField the ordering field as a one-field key, or null: the latest wins
     */
    public static MergeFunction deduplicate(
            KeyFields sequenceField, int arity, boolean rowsStayValid) {
        return new DeduplicateMergeFunction(sequenceField, arity, rowsStayValid);
    }

    /** Checks the merge options of a table being created or altered: throws what a write would. */
    public static void validate(TableMetadata metadata) {
        create(metadata, false);
    }

    /** The table's {@code sequence.field} as a one-field key, or null. */
    static KeyFields sequenceField(TableMetadata metadata) {
        String name = metadata.options().sequenceField();
        if (name == null) {
            return null;
        }
        RowType rowType = metadata.schema().rowType();
        int pos = rowType.indexOf(name);
        ValidationException.check(
                pos >= 0,
                "Invalid option 'sequence.field': column '%s' does not exist (columns: %s)",
                name,
                rowType.names());
        return KeyFields.of(rowType, new int[] {pos});
    }
}
