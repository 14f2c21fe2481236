package io.weir.flink.procedure;

import io.weir.ExpireSnapshots;
import io.weir.ExpireSnapshotsResult;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.time.Duration;

/**
 * {@code CALL c.sys.expire_snapshots('db.t' [, retain_last] [, older_than] [, dry_run])}: expires
 * snapshots by the table's retention, or by the given one for this call (as {@code weir clean}),
 * and deletes the files only they needed. Reader leases are honoured. Returns one row: the
 * snapshots expired, the earliest retained commit after the call, and the data and metadata files
 * deleted (or that would be, with {@code dry_run}).
 */
public final class ExpireSnapshotsProcedure implements Procedure {
    static final String NAME = "expire_snapshots";

    private final TableLocator tables;

    ExpireSnapshotsProcedure(TableLocator tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "retain_last", type = @DataTypeHint("INT"), isOptional = true),
                @ArgumentHint(
                        name = "older_than",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "dry_run", type = @DataTypeHint("BOOLEAN"), isOptional = true)
            },
            output =
                    @DataTypeHint(
                            "ROW<expired_snapshots BIGINT, earliest_retained BIGINT,"
                                    + " deleted_data_files INT, deleted_metadata_files INT>"))
    public Row[] call(
            ProcedureContext context,
            String table,
            Integer retainLast,
            String olderThan,
            Boolean dryRun) {
        Duration age = WeirProcedures.duration(NAME, "older_than", olderThan);
        ExpireSnapshots expiry = tables.locate(table).load().expireSnapshots();
        if (retainLast != null) {
            if (retainLast < 1) {
                throw new ValidationException(
                        "Invalid value "
                                + retainLast
                                + " for argument 'retain_last' of procedure "
                                + NAME
                                + ": must be at least 1");
            }
            expiry.retainLast(retainLast);
        }
        if (age != null) {
            expiry.expireOlderThan(System.currentTimeMillis() - age.toMillis());
        }
        if (WeirProcedures.isTrue(dryRun)) {
            expiry.dryRun();
        }
        ExpireSnapshotsResult result = expiry.commit();
        return new Row[] {
            Row.of(
                    result.expiredSnapshots(),
                    result.earliestRetained(),
                    result.deletedDataFiles().size(),
                    result.deletedMetadataFiles().size())
        };
    }
}
