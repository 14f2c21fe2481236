package io.weir.flink.procedure;

import io.weir.Table;
import io.weir.Tag;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL c.sys.create_tag('db.t', 'name' [, snapshot_id])} (Paimon's names): tags a snapshot
 * (default: the latest), so that snapshot expiry keeps its files and {@code scan.tag-name} reads it
 * ({@link io.weir.Tags}). Returns one row: the tag and the commit it names.
 */
public final class CreateTagProcedure implements Procedure {
    static final String NAME = "create_tag";

    private final TableLocator tables;

    CreateTagProcedure(TableLocator tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "tag", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "snapshot_id",
                        type = @DataTypeHint("BIGINT"),
                        isOptional = true)
            },
            output = @DataTypeHint("ROW<tag_name STRING, commit_id BIGINT>"))
    public Row[] call(ProcedureContext context, String table, String tag, Long snapshotId) {
        if (tag == null) {
            throw new ValidationException("Missing argument 'tag' of procedure " + NAME);
        }
        Table t = tables.locate(table).load();
        long commitId = snapshotId != null ? snapshotId : t.currentSnapshot().id();
        if (commitId == 0) {
            throw new ValidationException(
                    "Cannot create tag '"
                            + tag
                            + "' of table "
                            + table
                            + ": the table has no commit yet");
        }
        Tag created = t.tags().create(tag, commitId);
        return new Row[] {Row.of(created.name(), created.commitId())};
    }
}
