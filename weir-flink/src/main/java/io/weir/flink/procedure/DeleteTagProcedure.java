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

import java.util.List;

/**
 * {@code CALL c.sys.delete_tag('db.t', 'name')} (Paimon's names): deletes a tag and the data files
 * only it needed ({@link io.weir.Tags#delete}). Returns one row: the tag, its commit, and the
 * number of data files deleted.
 */
public final class DeleteTagProcedure implements Procedure {
    static final String NAME = "delete_tag";

    private final TableLocator tables;

    DeleteTagProcedure(TableLocator tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "tag", type = @DataTypeHint("STRING"))
            },
            output =
                    @DataTypeHint("ROW<tag_name STRING, commit_id BIGINT, deleted_data_files INT>"))
    public Row[] call(ProcedureContext context, String table, String tag) {
        if (tag == null) {
            throw new ValidationException("Missing argument 'tag' of procedure " + NAME);
        }
        Table t = tables.locate(table).load();
        Tag deleted = t.tags().get(tag);
        List<String> files = t.tags().delete(tag);
        return new Row[] {Row.of(deleted.name(), deleted.commitId(), files.size())};
    }
}
