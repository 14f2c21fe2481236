package io.weir.bench.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code weir bench} of every sink, with real Flink, Paimon and Hudi jars in child JVMs, on 2,000
 * rows, on Flink 1.20 (Hudi on 1.17) and on Flink 2.3: the JSON line has every figure, and the
 * table read back holds exactly the latest rows. The runs with {@code --lifecycle} also compact the
 * table, count and scan it, and check it after that. With {@code --source datagen} (Flink's own,
 * unseeded generator) the check is by keys and value shapes. One Weir run has its table on a
 * MiniDFSCluster ({@code --warehouse hdfs}).
 */
class BenchSmokeIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path work;

    @ParameterizedTest(name = "{0} {1} lifecycle={2} source={3} flink={4}")
    @CsvSource({
        "blackhole, 1, false, gen, 1.20",
        "shuffle, 2, false, gen, 1.20",
        "weir, 1, true, gen, 1.20",
        "paimon, 1, true, gen, 1.20",
        "blackhole117, 1, false, gen, 1.20",
        "hudi, 1, true, gen, 1.20",
        "weir, 3, false, gen, 1.20",
        "weir, 1, false, datagen, 1.20",
        "paimon, 2, false, datagen, 1.20",
        "blackhole, 1, false, gen, 2.3",
        "weir, 1, true, gen, 2.3",
        "paimon, 1, false, gen, 2.3",
    })
    void runPrintsItsFiguresAndChecksTheTable(
            String sink, String schema, boolean lifecycle, String source, String flink)
            throws Exception {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "--sink",
                                sink,
                                "--schema",
                                schema,
                                "--rows",
                                "2000",
                                "--heap",
                                "1g",
                                "--checkpoint-interval-ms",
                                "1000",
                                "--work-dir",
                                work.toString(),
                                "--source",
                                source,
                                "--flink",
                                flink));
        if (lifecycle) {
            args.add("--lifecycle");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int exitCode;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exitCode = BenchCommand.commandLine().execute(args.toArray(new String[0]));
        } finally {
            System.setOut(stdout);
        }
        String printed = out.toString(StandardCharsets.UTF_8).trim();
        System.out.println(printed);
        assertThat(exitCode).as(printed).isZero();
        assertThat(printed.lines()).hasSize(1);

        JsonNode line = JSON.readTree(printed);
        // On Flink 2.3 the sinks are weir2, paimon2, blackhole2.
        assertThat(line.path("sink").asText()).isEqualTo(flink.equals("2.3") ? sink + "2" : sink);
        if (flink.equals("2.3")) {
            assertThat(line.path("flink").asText()).startsWith("2.3.");
        } else {
            // The Flink 1.20 line's runs: Hudi and its blackhole on Flink 1.17.
            assertThat(line.path("flink").asText()).matches("1\\.(20|17)\\..*");
        }
        assertThat(line.path("schema").asText()).isEqualTo("schema" + schema);
        assertThat(line.path("rows").asLong()).isEqualTo(2000);
        assertThat(line.path("source").asText()).isEqualTo(source);
        assertThat(line.path("seconds").asDouble()).isPositive();
        assertThat(line.path("rows_per_s").asDouble()).isPositive();
        assertThat(line.path("cpu_s").asDouble()).isPositive();
        assertThat(line.path("gc_s").asDouble()).isNotNegative();
        assertThat(line.path("peak_rss_mb").asDouble()).isPositive();
        boolean table = !sink.startsWith("blackhole") && !sink.equals("shuffle");
        if (table) {
            assertThat(line.path("table_bytes").asLong()).isPositive();
            assertThat(line.path("verified").asBoolean()).isTrue();
        } else {
            assertThat(line.path("table_bytes").asLong()).isZero();
            assertThat(line.path("verified").isNull()).isTrue();
        }
        if (lifecycle) {
            for (String phase : List.of("compact", "count", "scan")) {
                assertThat(line.path(phase + "_s").asDouble()).as(phase).isPositive();
                assertThat(line.path(phase + "_cpu_s").asDouble()).as(phase).isPositive();
            }
        }
    }

    /**
     * {@code --warehouse hdfs}: the driver starts a MiniDFSCluster in a JVM of its own, Weir writes
     * through the connector jar's HDFS FileIO, and the JSON line has the NameNode's counters.
     */
    @Test
    void weirOnHdfs() throws Exception {
        JsonNode line =
                run(
                        "--sink",
                        "weir",
                        "--schema",
                        "1",
                        "--rows",
                        "2000",
                        "--heap",
                        "1g",
                        "--checkpoint-interval-ms",
                        "1000",
                        "--work-dir",
                        work.toString(),
                        "--warehouse",
                        "hdfs");
        assertThat(line.path("storage").asText()).isEqualTo("hdfs");
        assertThat(line.path("verified").asBoolean()).isTrue();
        assertThat(line.path("commits").asLong()).isPositive();
        // a commit file and data files were created, closed and written to the DataNode
        assertThat(line.path("hdfs_op_create").asLong())
                .isGreaterThan(line.path("commits").asLong());
        assertThat(line.path("hdfs_op_complete").asLong()).isPositive();
        assertThat(line.path("hdfs_ops").asLong())
                .isGreaterThan(line.path("hdfs_op_create").asLong());
        assertThat(line.path("hdfs_bytes_written").asLong()).isPositive();
    }

    private static JsonNode run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int exitCode;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exitCode = BenchCommand.commandLine().execute(args);
        } finally {
            System.setOut(stdout);
        }
        String printed = out.toString(StandardCharsets.UTF_8).trim();
        System.out.println(printed);
        assertThat(exitCode).as(printed).isZero();
        return JSON.readTree(printed);
    }

    /**
     * {@code --compaction on}: the sinks compact in the writer, and the table's history, read after
     * the run through the sink's own API, gives figures that add up (the figures themselves are
     * CompactionHistoryTest's).
     */
    @ParameterizedTest(name = "{0} compaction on")
    @CsvSource({"weir", "paimon", "hudi"})
    void compactionOnReadsTheTableHistory(String sink) throws Exception {
        String[] args = {
            "--sink",
            sink,
            "--schema",
            "1",
            "--rows",
            "3000",
            "--heap",
            "1g",
            "--compaction",
            "on",
            "--checkpoint-interval-ms",
            "500",
            "--work-dir",
            work.toString()
        };
        JsonNode line = run(args);
        assertThat(line.path("compaction").asText()).isEqualTo("on");
        assertThat(line.path("verified").asBoolean()).isTrue();
        assertThat(line.path("peak_heap_mb").asDouble()).isPositive();
        assertThat(line.path("table_files").asLong()).isPositive();
        long ingestCommits = line.path("ingest_commits").asLong();
        assertThat(ingestCommits).isPositive();
        assertThat(
                        line.path("compacted_commits").asLong()
                                + line.path("uncompacted_commits").asLong())
                .isEqualTo(line.path("ingest_commits_with_files").asLong())
                .isBetween(1L, ingestCommits);
        assertThat(line.path("ingested_bytes").asLong()).isPositive();
        // a sink may merge rows of one key in its buffer before it writes them
        assertThat(line.path("ingested_rows").asLong()).isBetween(1L, 3000L);
        assertThat(line.path("write_amp").asDouble())
                .isEqualTo(
                        (double) line.path("compaction_bytes_written").asLong()
                                / line.path("ingested_bytes").asLong(),
                        org.assertj.core.api.Assertions.within(1e-5));
        assertThat(line.path("runs_max").asInt()).isPositive();
        assertThat(line.path("runs_median").asInt()).isBetween(1, line.path("runs_max").asInt());
        assertThat(line.path("file_groups").asInt()).isEqualTo(4);
        assertThat(line.path("live_files").asLong())
                .isBetween(1L, line.path("table_files").asLong());
    }

    /**
     * {@code --time-limit} (what the fan-out runs use): an ingestion still running at the limit is
     * stopped there, and the run reports what its commits had ingested, without a rate over the
     * source's rows and without checking a table that does not hold them.
     */
    @Test
    void anIngestionStillRunningAtItsTimeLimitIsStoppedThere() throws Exception {
        long rows = 500_000_000L;
        String[] args = {
            "--sink",
            "weir",
            "--schema",
            "1",
            "--rows",
            String.valueOf(rows),
            "--heap",
            "1g",
            "--compaction",
            "on",
            "--time-limit",
            "15",
            "--work-dir",
            work.toString()
        };
        JsonNode line = run(args);
        assertThat(line.path("stopped_after_s").asLong()).isEqualTo(15);
        assertThat(line.path("seconds").asDouble()).isGreaterThanOrEqualTo(15);
        assertThat(line.path("rows_per_s").isNull()).isTrue();
        assertThat(line.path("verified").isNull()).isTrue();
        assertThat(line.path("ingest_commits").asLong()).isPositive();
        assertThat(line.path("ingested_rows").asLong()).isBetween(1L, rows - 1);
    }

    /**
     * With in-job snapshot expiry (as the long variant runs), the history is read while the table
     * is written: every commit is in it, although the first ones expired before the run ended.
     */
    @Test
    void theHistoryOfATableThatExpiresInTheJobHasEveryCommit() throws Exception {
        String[] args = {
            "--sink",
            "weir",
            "--schema",
            "1",
            "--rows",
            "1500000",
            "--heap",
            "1g",
            "--compaction",
            "on",
            "--checkpoint-interval-ms",
            "300",
            "--table-option",
            "snapshot.expire.in-job=true",
            "--table-option",
            "snapshot.num-retained.min=1",
            "--table-option",
            // A fast run makes about six ingest commits: at most 3 kept expires some of them.
            "snapshot.num-retained.max=3",
            "--keep",
            "--work-dir",
            work.toString()
        };
        JsonNode line = run(args);
        assertThat(line.path("verified").asBoolean()).isTrue();
        List<Long> commitIds;
        try (Stream<Path> files = Files.walk(work)) {
            commitIds =
                    files.filter(f -> f.getParent().getFileName().toString().equals("commits"))
                            .map(f -> f.getFileName().toString())
                            .filter(n -> n.matches("[0-9]{20}\\.json"))
                            .map(n -> Long.parseLong(n.substring(0, 20)))
                            .sorted()
                            .toList();
        }
        assertThat(commitIds.get(0)).as("the first commits expired").isGreaterThan(1);
        assertThat(line.path("ingest_commits").asLong() + line.path("compaction_commits").asLong())
                .as("every commit, expired or not, is in the history")
                .isEqualTo(commitIds.get(commitIds.size() - 1));
        assertThat(line.path("compaction_commits").asLong()).isPositive();
        assertThat(line.path("compacted_commits").asLong()).isPositive();
    }
}
