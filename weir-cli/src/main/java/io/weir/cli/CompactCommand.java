package io.weir.cli;

import io.weir.Compaction;
import io.weir.CompactionResult;
import io.weir.DataFile;
import io.weir.ScanTask;
import io.weir.Table;
import io.weir.exceptions.WeirException;
import io.weir.flink.FileIOLoader;
import io.weir.flink.compaction.CompactionJob;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code weir compact}: compacts a table in this process (no Flink), {@code --threads} file groups
 * at a time, printing progress, and commits all groups as one compaction commit. Ingestion may go
 * on meanwhile. For large tables, run the Flink {@code CompactionJob} on a cluster instead.
 */
@Command(
        name = "compact",
        description =
                "Fold the log files of a table's file groups into sorted base files, in one commit."
                        + " Safe while a job ingests into the table.")
public final class CompactCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin TableMixin table;

    @Option(
            names = "--partition",
            paramLabel = "K=V[,K=V]",
            description =
                    "Only the file groups of these partitions (keys left out match any value).")
    String partition;

    @Option(
            names = "--full",
            description =
                    "Compact every file group with a log file or more than one file (the"
                            + " default).")
    boolean full;

    @Option(
            names = "--min-log-files",
            paramLabel = "N",
            description =
                    "Instead of every group: only those with at least N log files (N >= 1;"
                            + " sorted runs newer than the group's first base count as log files).")
    Integer minLogFiles;

    @Option(
            names = "--due",
            description =
                    "Instead of every group: only those due by the table's"
                            + " compaction.max-log-files or compaction.max-log-bytes.")
    boolean due;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description =
                    "File groups rewritten at once, 1 to 64 (default: the table's"
                            + " compaction.threads).")
    Integer threads;

    @Override
    public Integer call() {
        return Errors.exitCode(spec, this::run);
    }

    private int run(PrintWriter out) {
        long start = System.nanoTime();
        int chosen = (full ? 1 : 0) + (minLogFiles != null ? 1 : 0) + (due ? 1 : 0);
        if (chosen > 1) {
            throw new ParameterException(
                    spec.commandLine(), "Give one of --full, --min-log-files N and --due");
        }
        if (minLogFiles != null && minLogFiles < 1) {
            throw new ParameterException(
                    spec.commandLine(),
                    "Invalid value "
                            + minLogFiles
                            + " for --min-log-files: must be at least 1 (without it every file"
                            + " group with a log file or more than one file is compacted)");
        }
        if (threads != null && (threads < 1 || threads > 64)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "Invalid value "
                            + threads
                            + " for --threads: must be between 1 and 64 (without it the table's"
                            + " compaction.threads)");
        }
        boolean everything = minLogFiles == null && !due;
        Table t = table.load();
        CompactionJob.Options options =
                new CompactionJob.Options(
                        table.location(),
                        FileIOLoader.of(table.location(), table.storage()),
                        partition,
                        everything,
                        minLogFiles == null ? -1 : minLogFiles,
                        1);
        List<ScanTask> tasks = CompactionJob.plan(t, options);
        if (tasks.isEmpty()) {
            out.printf("Nothing to compact in table %s (%s)%n", table.location(), scope());
            return 0;
        }
        long files = tasks.stream().mapToLong(task -> task.files().size()).sum();
        long bytes = tasks.stream().mapToLong(CompactCommand::bytes).sum();
        int workers =
                Math.min(threads != null ? threads : t.options().compactionThreads(), tasks.size());
        out.printf(
                "Compacting %d file groups (%d files, %s) of table %s at commit %d (%s) on %d"
                        + " thread%s%n",
                tasks.size(),
                files,
                Sizes.format(bytes),
                table.location(),
                tasks.get(0).snapshotId(),
                scope(),
                workers,
                workers == 1 ? "" : "s");
        // rewriteAll takes the compaction's writer lease; on a failure it deletes what it wrote
        // and ends the lease, and commit ends it too.
        Compaction compaction = t.newCompaction();
        List<DataFile> outputs;
        try {
            outputs = rewriteAll(compaction, tasks, workers, bytes, start, out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WeirException(
                    "Compaction of table " + table.location() + " interrupted; nothing committed");
        }
        CompactionResult result = compaction.commit(tasks, outputs);
        out.printf(
                "Committed commit %d: %d file groups, %d files replaced by %d (%s read), %.1f s%n",
                result.commitId(),
                result.fileGroups(),
                result.filesRemoved(),
                result.filesAdded(),
                Sizes.format(bytes),
                seconds(start));
        return 0;
    }

    /** Rewrites the groups, printing a line as each is done. */
    private static List<DataFile> rewriteAll(
            Compaction compaction,
            List<ScanTask> tasks,
            int workers,
            long bytes,
            long start,
            PrintWriter out)
            throws InterruptedException {
        AtomicInteger finished = new AtomicInteger();
        AtomicLong done = new AtomicLong();
        return compaction.rewriteAll(
                tasks,
                workers,
                (task, written) -> {
                    // One line at a time, numbered and summed in the order printed.
                    synchronized (out) {
                        long doneBytes = done.addAndGet(bytes(task));
                        out.printf(
                                "  [%d/%d] %s: %d files (%s) -> %d file%s, at %.1f s (%d%% of bytes)%n",
                                finished.incrementAndGet(),
                                tasks.size(),
                                task.fileGroup(),
                                task.files().size(),
                                Sizes.format(bytes(task)),
                                written.size(),
                                written.size() == 1 ? "" : "s",
                                seconds(start),
                                bytes == 0 ? 100 : doneBytes * 100 / bytes);
                        out.flush();
                    }
                });
    }

    private String scope() {
        String groups =
                minLogFiles != null
                        ? "file groups with at least " + minLogFiles + " log files"
                        : due ? "file groups due by the table's options" : "every file group";
        return groups + (partition == null ? ", all partitions" : ", partition " + partition);
    }

    private static long bytes(ScanTask task) {
        return task.files().stream().mapToLong(DataFile::sizeInBytes).sum();
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
