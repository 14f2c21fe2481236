package io.weir;

import io.weir.types.DataType;

import java.util.Objects;

/**
 * Changes a table's columns and options: {@code table.updateSchema().addColumn("c",
 * DataTypes.STRING()).setOption("compaction.max-log-files", "8").commit()}. The changes apply in
 * order, each against the result of the previous one, and commit together as one new schema version
 * (docs/format.md, "Schema evolution"). No data file is rewritten: readers map files of older
 * versions by field id, and compaction writes the latest version.
 *
 * <p>Primary-key and partition columns cannot change, nor columns that options name (the sequence
 * field, the time-partition column); a type can only widen ({@link io.weir.types.TypeWidening}).
 * Every refusal is a {@link io.weir.exceptions.ValidationException} naming the table, the column or
 * option, and the rule; nothing is committed then.
 *
 * <p>{@link #commit()} returns the new version, or the current one if the changes leave the schema
 * and options as they are.
 */
public interface UpdateSchema extends TableUpdate<TableMetadata> {

    /** Adds a nullable column (a column added to a table with rows cannot be NOT NULL). */
    UpdateSchema addColumn(String name, DataType type, String comment, Position position);

    default UpdateSchema addColumn(String name, DataType type) {
        return addColumn(name, type, null, Position.last());
    }

    UpdateSchema dropColumn(String name);

    UpdateSchema renameColumn(String name, String newName);

    /**
     * Widens a column's type; the new type's nullability applies too (NOT NULL may be dropped, not
     * added).
     */
    UpdateSchema updateColumnType(String name, DataType newType);

    /** Drops a column's NOT NULL constraint. */
    UpdateSchema makeColumnNullable(String name);

    /** Sets a column's comment; null removes it. */
    UpdateSchema updateColumnComment(String name, String comment);

    UpdateSchema moveColumn(String name, Position position);

    /** Sets a table option (docs/options.md lists which ones may change). */
    UpdateSchema setOption(String key, String value);

    /** Removes a table option, so that its default applies. */
    UpdateSchema resetOption(String key);

    /** Where a column goes: first, last, or after another column. */
    record Position(Kind kind, String column) {
        public enum Kind {
            FIRST,
            LAST,
            AFTER
        }

        public Position {
            Objects.requireNonNull(kind, "kind");
            if ((kind == Kind.AFTER) != (column != null)) {
                throw new IllegalArgumentException("AFTER takes a column; FIRST and LAST do not");
            }
        }

        public static Position first() {
            return new Position(Kind.FIRST, null);
        }

        public static Position last() {
            return new Position(Kind.LAST, null);
        }

        public static Position after(String column) {
            return new Position(Kind.AFTER, Objects.requireNonNull(column, "column"));
        }

        @Override
        public String toString() {
            return kind == Kind.AFTER ? "AFTER " + column : kind.name();
        }
    }
}
