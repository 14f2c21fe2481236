package io.weir.flink.procedure;

import io.weir.Snapshot;
import io.weir.Table;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL c.sys.rollback_to('db.t', snapshot_id)} (Paimon's name and argument names): commits a
 * rollback whose files are exactly those of snapshot {@code snapshot_id}; nothing is deleted. Also
 * repairs a table whose newest commit files are damaged or missing (docs/table-services.md,
 * "Damaged metadata"). Returns one row: the snapshot restored and the new commit's id.
 */
public final class RollbackToProcedure implements Procedure {
    static final String NAME = "rollback_to";

    private final TableLocator tables;

    RollbackToProcedure(TableLocator tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "snapshot_id", type = @DataTypeHint("BIGINT"))
            },
            output = @DataTypeHint("ROW<restored_snapshot BIGINT, rollback_commit BIGINT>"))
    public Row[] call(ProcedureContext context, String table, Long snapshotId) {
        if (snapshotId == null) {
            throw new org.apache.flink.table.api.ValidationException(
                    "Missing argument 'snapshot_id' of procedure " + NAME);
        }
        Table t = tables.locate(table).load();
        Snapshot s = t.rollbackTo(snapshotId);
        return new Row[] {Row.of(snapshotId, s.id())};
    }
}
