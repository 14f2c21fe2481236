package io.weir.flink.procedure;

import io.weir.ExpirePartitions;
import io.weir.ExpirePartitionsResult;
import io.weir.Table;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.time.Duration;
import java.util.List;

/**
 * {@code CALL c.sys.expire_partitions('db.t' [, older_than] [, dry_run])}: drops, in one commit,
 * the time partitions whose whole period ended longer ago than {@code older_than} (default: the
 * table's {@code partition.expiration-time}). Returns one row per partition dropped (or that would
 * be, with {@code dry_run}): its path and the commit that dropped it (null for a dry run).
 */
public final class ExpirePartitionsProcedure implements Procedure {
    static final String NAME = "expire_partitions";

    private final TableLocator tables;

    ExpirePartitionsProcedure(TableLocator tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "older_than",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "dry_run", type = @DataTypeHint("BOOLEAN"), isOptional = true)
            },
            output = @DataTypeHint("ROW<`partition` STRING, commit_id BIGINT>"))
    public Row[] call(ProcedureContext context, String table, String olderThan, Boolean dryRun) {
        Duration age = WeirProcedures.duration(NAME, "older_than", olderThan);
        Table loaded = tables.locate(table).load();
        ExpirePartitions expiry = loaded.expirePartitions();
        if (age != null) {
            expiry.olderThan(System.currentTimeMillis() - age.toMillis());
        }
        if (WeirProcedures.isTrue(dryRun)) {
            expiry.dryRun();
        }
        ExpirePartitionsResult result = expiry.commit();
        List<String> keys = loaded.schema().partitionKeys();
        Long commit = result.commitId() < 0 ? null : result.commitId();
        return result.partitions().stream()
                .map(p -> Row.of(p.path(keys), commit))
                .toArray(Row[]::new);
    }
}
