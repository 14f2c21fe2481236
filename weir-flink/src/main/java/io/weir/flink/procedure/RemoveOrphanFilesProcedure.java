package io.weir.flink.procedure;

import io.weir.RemoveOrphanFiles;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.time.Duration;

/**
 * {@code CALL c.sys.remove_orphan_files('db.t' [, older_than] [, dry_run])}: deletes the files no
 * metadata references (outputs of failed or aborted writes) last modified longer ago than {@code
 * older_than} (default: the table's {@code orphan.older-than}). Returns one row per file deleted,
 * or that would be with {@code dry_run}.
 */
public final class RemoveOrphanFilesProcedure implements Procedure {
    static final String NAME = "remove_orphan_files";

    private final TableLocator tables;

    RemoveOrphanFilesProcedure(TableLocator tables) {
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
            output = @DataTypeHint("ROW<orphan_file STRING>"))
    public Row[] call(ProcedureContext context, String table, String olderThan, Boolean dryRun) {
        Duration age = WeirProcedures.duration(NAME, "older_than", olderThan);
        RemoveOrphanFiles orphans = tables.locate(table).load().removeOrphanFiles();
        if (age != null) {
            if (age.compareTo(RemoveOrphanFiles.MIN_AGE) < 0) {
                throw new ValidationException(
                        String.format(
                                "Invalid value '%s' for argument 'older_than' of procedure %s:"
                                        + " must be at least 1 min, so that the files of writes"
                                        + " still to be committed survive",
                                olderThan, NAME));
            }
            orphans.olderThan(System.currentTimeMillis() - age.toMillis());
        }
        if (WeirProcedures.isTrue(dryRun)) {
            orphans.dryRun();
        }
        return orphans.execute().orphanFiles().stream().map(Row::of).toArray(Row[]::new);
    }
}
