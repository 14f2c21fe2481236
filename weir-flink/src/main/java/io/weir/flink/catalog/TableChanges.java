package io.weir.flink.catalog;

import io.weir.UpdateSchema;
import io.weir.UpdateSchema.Position;
import io.weir.flink.FlinkTypes;
import io.weir.types.DataType;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.TableChange;

import java.util.List;
import java.util.Objects;

/**
 * Turns the changes of an {@code ALTER TABLE} statement, as Flink's planner lists them, into one
 * Weir schema update: they commit together, as one schema version, or not at all.
 */
final class TableChanges {
    private TableChanges() {}

    /**
     * @param table the table's SQL name, for errors
     * @throws ValidationException for a change a Weir table cannot store (constraints, watermarks,
     *     distribution, computed or metadata columns)
     */
    static UpdateSchema apply(String table, UpdateSchema update, List<TableChange> changes) {
        for (TableChange change : changes) {
            if (change instanceof TableChange.AddColumn add) {
                Column column = add.getColumn();
                checkPhysical(table, column);
                update.addColumn(
                        column.getName(),
                        type(column),
                        column.getComment().orElse(null),
                        position(add.getPosition()));
            } else if (change instanceof TableChange.DropColumn drop) {
                update.dropColumn(drop.getColumnName());
            } else if (change instanceof TableChange.ModifyColumnName rename) {
                update.renameColumn(rename.getOldColumnName(), rename.getNewColumnName());
            } else if (change instanceof TableChange.ModifyPhysicalColumnType modify) {
                String name = modify.getOldColumn().getName();
                update.updateColumnType(
                        name, FlinkTypes.toWeir(modify.getNewType().getLogicalType(), name));
            } else if (change instanceof TableChange.ModifyColumnComment comment) {
                update.updateColumnComment(
                        comment.getOldColumn().getName(), comment.getNewComment());
            } else if (change instanceof TableChange.ModifyColumnPosition move) {
                update.moveColumn(move.getOldColumn().getName(), position(move.getNewPosition()));
            } else if (change instanceof TableChange.ModifyColumn modify) {
                modifyColumn(table, update, modify);
            } else if (change instanceof TableChange.SetOption set) {
                update.setOption(set.getKey(), set.getValue());
            } else if (change instanceof TableChange.ResetOption reset) {
                update.resetOption(reset.getKey());
            } else {
                throw new ValidationException(
                        "Cannot alter table "
                                + table
                                + ": a Weir table cannot store the change "
                                + change
                                + "; it supports ADD, DROP, RENAME and MODIFY of physical"
                                + " columns (type, nullability, comment, position) and SET/RESET"
                                + " of table options");
            }
        }
        return update;
    }

    /** A change of several aspects of a column at once: each in turn. */
    private static void modifyColumn(
            String table, UpdateSchema update, TableChange.ModifyColumn modify) {
        Column before = modify.getOldColumn();
        Column after = modify.getNewColumn();
        checkPhysical(table, after);
        String name = before.getName();
        if (!before.getDataType().equals(after.getDataType())) {
            update.updateColumnType(name, type(after));
        }
        if (!Objects.equals(before.getComment(), after.getComment())) {
            update.updateColumnComment(name, after.getComment().orElse(null));
        }
        if (modify.getNewPosition() != null) {
            update.moveColumn(name, position(modify.getNewPosition()));
        }
        if (!name.equals(after.getName())) {
            update.renameColumn(name, after.getName());
        }
    }

    private static void checkPhysical(String table, Column column) {
        if (!column.isPhysical()) {
            throw new ValidationException(
                    "Cannot alter table "
                            + table
                            + ": column '"
                            + column.getName()
                            + "' is not a physical column; a Weir table stores physical columns"
                            + " only");
        }
    }

    private static DataType type(Column column) {
        return FlinkTypes.toWeir(column.getDataType().getLogicalType(), column.getName());
    }

    private static Position position(TableChange.ColumnPosition position) {
        if (position == null) {
            return Position.last();
        }
        if (position instanceof TableChange.After after) {
            return Position.after(after.column());
        }
        return Position.first();
    }
}
