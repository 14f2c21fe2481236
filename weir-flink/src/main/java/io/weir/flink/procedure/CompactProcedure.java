package io.weir.flink.procedure;

import io.weir.ScanTask;
import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.compaction.CompactionBudget;
import io.weir.flink.compaction.CompactionJob;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.util.List;

/**
 * {@code CALL c.sys.compact('db.t' [, partition] [, compact_strategy] [, min_log_files] [,
 * parallelism])}: compacts every file group with a log file or more than one file ({@code
 * compact_strategy => 'full'}, the default, as Paimon's in batch mode), or with {@code 'minor'} the
 * groups due by the table's options, or with {@code min_log_files} those with that many logs as a
 * bounded Flink job in the caller's environment, which is how a cluster runs it from SQL. The same
 * job as {@link CompactionJob}; returns one row: the groups compacted, the files they had, the
 * bytes read and the table's latest commit afterwards (the compaction's own unless ingestion
 * committed meanwhile; null if nothing was due).
 */
public final class CompactProcedure implements Procedure {
    static final String NAME = "compact";

    private final TableLocator tables;

    CompactProcedure(TableLocator tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "partition",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(
                        name = "compact_strategy",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(
                        name = "min_log_files",
                        type = @DataTypeHint("INT"),
                        isOptional = true),
                @ArgumentHint(name = "parallelism", type = @DataTypeHint("INT"), isOptional = true)
            },
            output =
                    @DataTypeHint(
                            "ROW<file_groups INT, files BIGINT, bytes_read BIGINT,"
                                    + " commit_id BIGINT>"))
    public Row[] call(
            ProcedureContext context,
            String table,
            String partition,
            String compactStrategy,
            Integer minLogFiles,
            Integer parallelism)
            throws Exception {
        boolean fullCompaction = minLogFiles == null && isFull(compactStrategy);
        if (minLogFiles != null && "full".equalsIgnoreCase(compactStrategy)) {
            throw new ValidationException(
                    "Procedure compact takes either compact_strategy 'full' or 'min_log_files',"
                            + " not both");
        }
        checkPositive("min_log_files", minLogFiles);
        checkPositive("parallelism", parallelism);
        TableLocator.Located located = tables.locate(table);
        String location = located.location();
        CompactionJob.Options options =
                new CompactionJob.Options(
                        location,
                        located.io(),
                        partition,
                        fullCompaction,
                        minLogFiles == null ? -1 : minLogFiles,
                        parallelism == null ? -1 : parallelism);
        Table loaded = Tables.load(options.io().get(), location);
        List<ScanTask> tasks = CompactionJob.plan(loaded, options);
        if (tasks.isEmpty()) {
            return new Row[] {Row.of(0, 0L, 0L, null)};
        }
        CompactionJob.execute(
                context.getExecutionEnvironment(), options, tasks, "Weir compaction of " + table);
        loaded.refresh();
        return new Row[] {
            Row.of(
                    tasks.size(),
                    tasks.stream().mapToLong(t -> t.files().size()).sum(),
                    tasks.stream().mapToLong(CompactionBudget::bytes).sum(),
                    loaded.currentSnapshot().id())
        };
    }

    private static boolean isFull(String strategy) {
        if (strategy == null || strategy.equalsIgnoreCase("full")) {
            return true;
        } else if (strategy.equalsIgnoreCase("minor")) {
            return false;
        }
        throw new ValidationException(
                "Invalid value '"
                        + strategy
                        + "' for argument 'compact_strategy' of procedure compact: 'full' (every"
                        + " group with a log file or more than one file, the default) or 'minor'"
                        + " (the groups due by the table's compaction options)");
    }

    private static void checkPositive(String argument, Integer value) {
        if (value != null && value < 1) {
            throw new ValidationException(
                    String.format(
                            "Invalid value %d for argument '%s' of procedure compact: must be at"
                                    + " least 1",
                            value, argument));
        }
    }
}
