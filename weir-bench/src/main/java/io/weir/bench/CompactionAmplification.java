package io.weir.bench;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.CompactionResult;
import io.weir.DataFile;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowReader;
import io.weir.io.LocalFileIO;
import io.weir.service.RunPicker;
import io.weir.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Write and read amplification of compaction at the table level, without Flink: {@code --commits}
 * commits of {@code --rows-per-commit} upserts (keys uniform in [0, all rows / 5), as BENCHMARK.md
 * draws them) into a table of {@code --buckets} file groups, each commit followed by the compaction
 * of the due groups ({@code table.newCompaction().execute()}, as an ingestion job's in-job round
 * does). Reports:
 *
 * <ul>
 *   <li>write amplification: bytes of the files compaction wrote / bytes of the log files ingested
 *       (and the same in records);
 *   <li>read amplification: sorted runs per file group after each commit, before its compaction
 *       (the most a reader meets), max and median over the commits;
 *   <li>compaction CPU time (this thread) per row ingested.
 * </ul>
 *
 * {@code --policy tiered} (the defaults of the table options) or {@code whole} ({@code
 * compaction.max-size-amplification-percent} = 0: every due group is rewritten whole, what
 * compaction did before incremental compaction). At the end the table's rows are checked against a
 * model of the last value written per key. Not a JMH benchmark: a manual run (docs/performance.md,
 * "Incremental compaction"):
 *
 * <pre>
 * java -cp weir-bench/target/benchmarks.jar io.weir.bench.CompactionAmplification \
 *     --policy tiered --commits 300 --rows-per-commit 5000
 * </pre>
 */
public final class CompactionAmplification {
    private CompactionAmplification() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("Expected --flag value, got " + args[i]);
            }
            flags.put(args[i].substring(2), args[i + 1]);
        }
        BenchSchema schema = BenchSchema.valueOf(flags.getOrDefault("schema", "schema1"));
        int commits = Integer.parseInt(flags.getOrDefault("commits", "300"));
        int rowsPerCommit = Integer.parseInt(flags.getOrDefault("rows-per-commit", "5000"));
        String policy = flags.getOrDefault("policy", "tiered");
        Map<String, String> options = new HashMap<>();
        options.put("bucket", flags.getOrDefault("buckets", "1"));
        options.put("compaction.max-log-files", flags.getOrDefault("max-log-files", "5"));
        if (flags.containsKey("run-format")) {
            options.put("compaction.run-format", flags.get("run-format"));
        }
        if (flags.containsKey("size-ratio")) {
            options.put("compaction.size-ratio", flags.get("size-ratio"));
        }
        if (policy.equals("whole")) {
            options.put("compaction.max-size-amplification-percent", "0");
        } else if (policy.equals("tiered")) {
            if (flags.containsKey("max-size-amp")) {
                options.put("compaction.max-size-amplification-percent", flags.get("max-size-amp"));
            }
        } else {
            throw new IllegalArgumentException("--policy is tiered or whole, not " + policy);
        }
        Path dir = Files.createTempDirectory(flags.getOrDefault("dir-prefix", "weir-amp"));
        try {
            Report report = run(dir, schema, commits, rowsPerCommit, options);
            System.out.println(
                    "policy="
                            + policy
                            + " schema="
                            + schema
                            + " commits="
                            + commits
                            + " rows/commit="
                            + rowsPerCommit
                            + " options="
                            + options);
            System.out.println(report);
        } finally {
            deleteRecursively(dir);
        }
    }

    /** What one run measured. */
    public record Report(
            long ingestedBytes,
            long ingestedRecords,
            long compactedBytes,
            long compactedRecords,
            long compactions,
            long wholeRewrites,
            int maxRuns,
            double medianRuns,
            long compactionCpuNanos,
            long rows,
            long finalFiles,
            long finalBytes) {
        public double writeAmplification() {
            return (double) compactedBytes / ingestedBytes;
        }

        @Override
        public String toString() {
            return String.format(
                    "write amplification %.2f (bytes: %,d written by compaction / %,d of logs"
                            + " ingested; records %.2f)%n"
                            + "runs per file group after a commit: max %d, median %.1f%n"
                            + "compactions %d (%d whole-group rewrites), compaction CPU %.2f s ="
                            + " %.2f us per ingested row%n"
                            + "end: %d files, %,d bytes, %,d rows (checked against the model)",
                    writeAmplification(),
                    compactedBytes,
                    ingestedBytes,
                    (double) compactedRecords / ingestedRecords,
                    maxRuns,
                    medianRuns,
                    compactions,
                    wholeRewrites,
                    compactionCpuNanos / 1e9,
                    compactionCpuNanos / 1e3 / ingestedRecords,
                    finalFiles,
                    finalBytes,
                    rows);
        }
    }

    /** Runs the ingest-and-compact loop in {@code dir}; checks the final rows against a model. */
    public static Report run(
            Path dir,
            BenchSchema schema,
            int commits,
            int rowsPerCommit,
            Map<String, String> options) {
        Table table =
                Tables.create(
                        new LocalFileIO(), dir.resolve("t").toString(), schema.schema(), options);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long keys = Math.max(1, (long) commits * rowsPerCommit / 5);
        // The model: per key, a checksum of the last row written (0: never written).
        long[] model = new long[Math.toIntExact(keys)];
        SplittableRandom random = new SplittableRandom(42);
        BinaryRowWriter w = new BinaryRowWriter(schema.arity());
        RowType type = schema.schema().rowType();
        long ingestedBytes = 0;
        long compactedBytes = 0;
        long compactedRecords = 0;
        long compactions = 0;
        long wholeRewrites = 0;
        long cpu = 0;
        List<Integer> runsPerCommit = new ArrayList<>();
        for (int c = 0; c < commits; c++) {
            try (TableWrite write = table.newWrite().create()) {
                for (int i = 0; i < rowsPerCommit; i++) {
                    long key = random.nextLong(keys);
                    BinaryRow row = schema.row(w, key, random);
                    model[(int) key] = checksum(row, type);
                    write.write(row);
                }
                List<DataFile> files = write.prepareCommit();
                ingestedBytes += files.stream().mapToLong(DataFile::sizeInBytes).sum();
                table.newAppend().addFiles(files).commit();
            }
            table.refresh();
            runsPerCommit.add(
                    table.currentSnapshot().fileGroups().values().stream()
                            .mapToInt(f -> RunPicker.runs(f).size())
                            .max()
                            .orElse(0));
            Map<io.weir.FileGroupId, List<DataFile>> prior = table.currentSnapshot().fileGroups();
            long start = threads.getCurrentThreadCpuTime();
            CompactionResult result = table.newCompaction().execute();
            cpu += threads.getCurrentThreadCpuTime() - start;
            if (result != null) {
                Commit commit = table.commit(result.commitId());
                if (commit.kind() != CommitKind.COMPACT) {
                    throw new IllegalStateException("Not a compaction: " + commit);
                }
                compactions++;
                for (DataFile f : commit.added()) {
                    compactedBytes += f.sizeInBytes();
                    compactedRecords += f.recordCount();
                }
                java.util.Set<String> removed = new java.util.HashSet<>(commit.removed());
                for (List<DataFile> files : prior.values()) {
                    if (files.stream().allMatch(f -> removed.contains(f.path()))) {
                        wholeRewrites++;
                    }
                }
            }
        }
        table.refresh();
        long rows = check(table, schema, model);
        int[] sorted = runsPerCommit.stream().mapToInt(Integer::intValue).sorted().toArray();
        double median =
                sorted.length % 2 == 1
                        ? sorted[sorted.length / 2]
                        : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
        List<DataFile> live = table.currentSnapshot().files();
        return new Report(
                ingestedBytes,
                (long) commits * rowsPerCommit,
                compactedBytes,
                compactedRecords,
                compactions,
                wholeRewrites,
                Arrays.stream(sorted).max().orElse(0),
                median,
                cpu,
                rows,
                live.size(),
                live.stream().mapToLong(DataFile::sizeInBytes).sum());
    }

    /** The rows must be exactly the model's: the last row written per key. */
    private static long check(Table table, BenchSchema schema, long[] model) {
        long expected = Arrays.stream(model).filter(v -> v != 0).count();
        long rows = 0;
        int keyPos = schema.keyPosition();
        RowType type = schema.schema().rowType();
        try (RowReader reader = table.newScan().rows()) {
            while (reader.next()) {
                BinaryRow row = reader.row();
                long key = row.getLong(keyPos);
                if (model[(int) key] != checksum(row, type)) {
                    throw new IllegalStateException("Wrong row for key " + key);
                }
                rows++;
            }
        }
        if (rows != expected) {
            throw new IllegalStateException(rows + " rows, the model has " + expected);
        }
        return rows;
    }

    /** A non-zero checksum of a row's values (rows read back are not byte-identical). */
    private static long checksum(BinaryRow row, RowType type) {
        long h = 1125899906842597L;
        for (int i = 0; i < type.size(); i++) {
            h = 31 * h + String.valueOf(row.get(i, type.type(i))).hashCode();
        }
        return h == 0 ? 1 : h;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(
                            p -> {
                                try {
                                    Files.delete(p);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
        }
    }
}
