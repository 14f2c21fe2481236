package io.weir.flink.compaction;

import io.weir.Compaction;
import io.weir.ScanTask;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.Tables;
import io.weir.WriterLease;
import io.weir.exceptions.ValidationException;
import io.weir.flink.FileIOLoader;
import io.weir.io.FileIO;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.function.SerializableSupplier;

import java.io.PrintStream;
import java.util.List;
import java.util.Objects;

/**
 * Compacts a Weir table as a bounded Flink job, for tables whose ingestion runs {@code write-only}
 * or backlogs too large for in-job compaction:
 *
 * <pre>
 * flink run -c io.weir.flink.compaction.CompactionJob weir-flink-&lt;version&gt;-connector.jar \
 *     --table /data/orders [--partition dt=2024-05-01] [--full] [--min-log-files 3] [--parallelism 4]
 * </pre>
 *
 * <p>The client plans the due file groups on the latest snapshot; the job rewrites them in parallel
 * tasks (one group per record, spread round-robin) and one committer task commits them all as ONE
 * compaction commit at end of input (batch execution). Ingestion may go on meanwhile: the commit
 * never conflicts with appends. If another compaction replaced some of the same files first, the
 * commit fails with a conflict and deletes this job's files; nothing else changes. The client takes
 * a writer lease before the job starts, which every task shares: orphan removal keeps the job's
 * outputs until the commit has landed or failed (docs/table-services.md, "Writer leases").
 */
public final class CompactionJob {
    private CompactionJob() {}

    /**
     * What to compact.
     *
     * @param location the table
     * @param io the table's file system on each task
     * @param partition the partitions to compact ({@code k=v[,k=v]}), or null for all
     * @param full compact every group with a log file (or more than one file)
     * @param minLogFiles compact groups with at least this many logs, or -1 for the table option
     * @param parallelism rewrite tasks, or -1 for the environment's default
     */
    public record Options(
            String location,
            SerializableSupplier<FileIO> io,
            String partition,
            boolean full,
            int minLogFiles,
            int parallelism) {
        public Options {
            Objects.requireNonNull(io, "io");
            ValidationException.check(
                    location != null && !location.isBlank(), "Compaction needs --table PATH");
        }

        /** Every file group with a log file or more than one file, as Paimon's batch compact. */
        public static Options of(String location) {
            return new Options(location, FileIOLoader.of(location), null, true, -1, -1);
        }

        /**
         * Parses {@code --table PATH [--partition k=v[,k=v]] [--full | --min-log-files N]
         * [--parallelism N]}. Without {@code --min-log-files}, every file group with a log file or
         * more than one file is compacted ({@code --full}, the default).
         */
        public static Options parse(String[] args) {
            String location = null;
            String partition = null;
            boolean full = false;
            int minLogFiles = -1;
            int parallelism = -1;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--table" -> location = value(args, ++i);
                    case "--partition" -> partition = value(args, ++i);
                    case "--full" -> full = true;
                    case "--min-log-files" -> minLogFiles = positive(args, ++i);
                    case "--parallelism" -> parallelism = positive(args, ++i);
                    default ->
                            throw new ValidationException(
                                    "Unknown argument '"
                                            + args[i]
                                            + "'. Usage: --table PATH [--partition k=v[,k=v]]"
                                            + " [--full] [--min-log-files N] [--parallelism N]");
                }
            }
            ValidationException.check(
                    !(full && minLogFiles > 0), "Give either --full or --min-log-files, not both");
            full = minLogFiles < 0;
            ValidationException.check(
                    location != null && !location.isBlank(), "Compaction needs --table PATH");
            return new Options(
                    location, FileIOLoader.of(location), partition, full, minLogFiles, parallelism);
        }

        private static String value(String[] args, int i) {
            ValidationException.check(i < args.length, "%s needs a value", args[i - 1]);
            return args[i];
        }

        private static int positive(String[] args, int i) {
            String text = value(args, i);
            try {
                int n = Integer.parseInt(text);
                ValidationException.check(n >= 1, "%s must be at least 1", args[i - 1]);
                return n;
            } catch (NumberFormatException e) {
                throw new ValidationException(args[i - 1] + " needs a number, got '" + text + "'");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        run(env, options, System.out);
    }

    /**
     * Plans, builds and runs the job in {@code env}, printing what it does; returns the file groups
     * compacted (0 if none was due).
     */
    public static int run(StreamExecutionEnvironment env, Options options, PrintStream out)
            throws Exception {
        long start = System.nanoTime();
        Table table = Tables.load(options.io().get(), options.location());
        List<ScanTask> tasks = plan(table, options);
        long files = tasks.stream().mapToLong(t -> t.files().size()).sum();
        long bytes = tasks.stream().mapToLong(CompactionBudget::bytes).sum();
        if (tasks.isEmpty()) {
            out.printf("Nothing to compact in table %s%n", options.location());
            return 0;
        }
        out.printf(
                "Compacting %d file groups (%d files, %d bytes) of table %s at commit %d%n",
                tasks.size(), files, bytes, options.location(), tasks.get(0).snapshotId());
        execute(env, options, tasks, "Weir compaction of " + options.location());
        table.refresh();
        Snapshot after = table.currentSnapshot();
        out.printf(
                "Compacted %d file groups in %.1f s; table now at commit %d with %d files%n",
                tasks.size(), (System.nanoTime() - start) / 1e9, after.id(), after.files().size());
        return tasks.size();
    }

    /** The file groups the options select on the latest snapshot, each to be rewritten whole. */
    public static List<ScanTask> plan(Table table, Options options) {
        Compaction compaction =
                table.newCompaction()
                        .wholeGroups()
                        .fileGroups(PartitionFilter.parse(options.partition(), table.schema()));
        if (options.full()) {
            compaction.full();
        } else if (options.minLogFiles() > 0) {
            compaction.minLogFiles(options.minLogFiles());
        }
        return compaction.plan();
    }

    /**
     * Takes the compaction's writer lease, runs the rewrite and commit of {@code tasks} in {@code
     * env} as the job {@code jobName}, and ends the lease when the job has ended (its commit ends
     * it already, unless the job failed before).
     */
    public static void execute(
            StreamExecutionEnvironment env, Options options, List<ScanTask> tasks, String jobName)
            throws Exception {
        Table table = Tables.load(options.io().get(), options.location());
        WriterLease lease = table.newCompaction().lease();
        try {
            build(env, options, tasks, lease);
            env.execute(jobName);
        } finally {
            try {
                table.writerLeases().release(lease.writerId());
            } catch (RuntimeException e) {
                // it ends by itself (Compaction.LEASE_TTL)
            }
        }
    }

    /**
     * Adds the rewrite and commit of {@code tasks} to {@code env} (batch execution), under {@code
     * lease} (from {@link io.weir.Compaction#lease()}).
     */
    static void build(
            StreamExecutionEnvironment env,
            Options options,
            List<ScanTask> tasks,
            WriterLease lease) {
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        TypeInformation<byte[]> bytes = PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
        List<byte[]> planned =
                tasks.stream().map(t -> new RewrittenGroup(t, List.of()).toBytes()).toList();
        int parallelism =
                Math.min(
                        tasks.size(),
                        options.parallelism() > 0 ? options.parallelism() : env.getParallelism());
        env.fromData(planned, bytes)
                .name("Weir compaction plan")
                .setParallelism(1)
                .rebalance()
                .map(new GroupRewriter(options.io(), options.location(), lease), bytes)
                .name("Weir compaction rewrite")
                .setParallelism(Math.max(1, parallelism))
                .global()
                .transform(
                        "Weir compaction commit",
                        Types.VOID,
                        new CompactionCommitter(
                                options.io(), options.location(), tasks.size(), lease))
                .setParallelism(1)
                .setMaxParallelism(1);
    }
}
