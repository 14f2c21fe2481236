package io.weir.flink.procedure;

import io.weir.CommitResult;
import io.weir.Table;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL c.sys.rescale('db.t', bucket_num)} (Paimon's argument names): rewrites the table into
 * {@code bucket_num} buckets in one commit (docs/rescale.md). Returns one row: the bucket counts
 * before and after, and the commit's id (null if the table had that many buckets already).
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
                @ArgumentHint(name = "bucket_num", type = @DataTypeHint("INT"))
            },
            output = @DataTypeHint("ROW<buckets_before INT, buckets_after INT, commit_id BIGINT>"))
    public Row[] call(ProcedureContext context, String table, Integer bucketNum) {
        if (bucketNum == null) {
            throw new org.apache.flink.table.api.ValidationException(
                    "Missing argument 'bucket_num' of procedure " + NAME);
        }
        Table t = tables.locate(table).load();
        int before = t.options().bucket();
        CommitResult result = t.newRescale().buckets(bucketNum).commit();
        return new Row[] {Row.of(before, bucketNum, result == null ? null : result.commit().id())};
    }
}
