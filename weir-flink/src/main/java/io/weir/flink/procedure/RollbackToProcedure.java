package io.weir.flink.procedure;

import io.weir.Snapshot;
import io.weir.Table;
import io.weir.flink.table.WeirReadOptions;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.time.ZoneId;

/**
 * {@code CALL c.sys.rollback_to('db.t', snapshot_id)}, or with {@code tag => 'name'} or {@code
 * timestamp => '2024-05-01 10:00:00'} (epoch millis, an instant or a local date-time, as {@code
 * scan.timestamp}: the latest commit made at or before it) instead of the snapshot id: commits a
 * rollback whose files are exactly those of that snapshot; nothing is deleted. Paimon's names. Also
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
                @ArgumentHint(
                        name = "snapshot_id",
                        type = @DataTypeHint("BIGINT"),
                        isOptional = true),
                @ArgumentHint(name = "tag", type = @DataTypeHint("STRING"), isOptional = true),
                @ArgumentHint(name = "timestamp", type = @DataTypeHint("STRING"), isOptional = true)
            },
            output = @DataTypeHint("ROW<restored_snapshot BIGINT, rollback_commit BIGINT>"))
    public Row[] call(
            ProcedureContext context, String table, Long snapshotId, String tag, String timestamp) {
        int given =
                (snapshotId != null ? 1 : 0) + (tag != null ? 1 : 0) + (timestamp != null ? 1 : 0);
        if (given != 1) {
            throw new ValidationException(
                    "Procedure "
                            + NAME
                            + " needs exactly one of the arguments 'snapshot_id', 'tag' and"
                            + " 'timestamp'; got "
                            + given);
        }
        Table t = tables.locate(table).load();
        long target;
        if (snapshotId != null) {
            target = snapshotId;
        } else if (tag != null) {
            target = t.tags().get(tag).commitId();
        } else {
            long millis;
            try {
                millis = WeirReadOptions.parseTimestamp(timestamp, ZoneId.systemDefault());
            } catch (io.weir.exceptions.ValidationException e) {
                throw new ValidationException(
                        "Invalid value '"
                                + timestamp
                                + "' for argument 'timestamp' of procedure "
                                + NAME
                                + ": expected epoch milliseconds, '2024-05-01 10:00:00[.fff]' or"
                                + " '2024-05-01T10:00:00Z'",
                        e);
            }
            target = t.snapshotAsOf(millis).id();
        }
        Snapshot s = t.rollbackTo(target);
        return new Row[] {Row.of(target, s.id())};
    }
}
