package io.weir.flink.procedure;

import io.weir.CommitResult;
import io.weir.Rescale;
import io.weir.Table;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL c.sys.rescale('db.t', bucket_num)}, or with Paimon's named arguments {@code CALL
 * c.sys.rescale(`table` => 'db.t', bucket_num => N, `partition` => 'dt=2024-01-01')}: rewrites the
 * table, or one partition of it, into {@code bucket_num} buckets in one commit (docs/rescale.md).
 * For a partition, {@code bucket_num} defaults to the table's {@code bucket} option. Returns one
 * row: the bucket counts before and after (of the partition, if one is named), and the commit's id
 * (null if there was nothing to change).
 */
public final class RescaleProcedure implements Procedure {
    static final String NAME = "rescale";

    private final TableLocator tables;

    RescaleProcedure(TableLocator tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "bucket_num", type = @DataTypeHint("INT"), isOptional = true),
                @ArgumentHint(name = "partition", type = @DataTypeHint("STRING"), isOptional = true)
            },
            output = @DataTypeHint("ROW<buckets_before INT, buckets_after INT, commit_id BIGINT>"))
    public Row[] call(ProcedureContext context, String table, Integer bucketNum, String partition) {
        if (bucketNum == null && partition == null) {
            throw new org.apache.flink.table.api.ValidationException(
                    "Missing argument 'bucket_num' of procedure "
                            + NAME
                            + ": the new number of buckets of the table (it may be left out only"
                            + " with 'partition', which then takes the table's bucket option)");
        }
        Table t = tables.locate(table).load();
        Rescale rescale = t.newRescale();
        if (bucketNum != null) {
            rescale.buckets(bucketNum);
        }
        if (partition != null) {
            rescale.partition(partition);
        }
        CommitResult result = rescale.commit();
        int after = bucketNum != null ? bucketNum : t.options().bucket();
        if (result == null) {
            return new Row[] {Row.of(after, after, null)};
        }
        String change = result.commit().properties().get(Rescale.COMMIT_PROPERTY);
        int before = Integer.parseInt(change.substring(0, change.indexOf(' ')));
        return new Row[] {Row.of(before, after, result.commit().id())};
    }
}
