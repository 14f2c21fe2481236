package io.weir.bench.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad values are usage errors with their exact message, found before any child JVM starts. */
class BenchCommandTest {
    @TempDir Path work;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--sink | iceberg | Unknown sink 'iceberg': expected weir, paimon, hudi, blackhole,"
                        + " shuffle or blackhole117",
                "--schema | 5 | Unknown schema '5': expected 1, 2, 3, 4 or schema1 ... schema4",
                "--source | kafka | Unknown source 'kafka': expected gen or datagen",
                "--flink | 1.19 | Unknown Flink version '1.19': the benchmark runs on Flink 1.20"
                        + " or 2.3",
                "--compaction | sideways | Unknown compaction mode 'sideways': expected off, on or"
                        + " long",
                "--time-limit | 0 | --time-limit must be at least 1 (seconds); got 0",
                "--partitions | 0 | --partitions must be at least 1; got 0",
            })
    void badValuesAreUsageErrors(String option, String value, String message) {
        assertUsageError(option, value, "weir", message);
    }

    /** The report names the suite by the arguments as given, table options included. */
    @Test
    void theSuiteIsDescribedByItsArguments() {
        BenchCommand command = new BenchCommand();
        new CommandLine(command)
                .parseArgs(
                        "--all",
                        "--compaction",
                        "long",
                        "--keys",
                        "40000000",
                        "--table-option",
                        "snapshot.expire.in-job=true",
                        "--work-dir",
                        "/tmp/a b");
        assertThat(command.describeSuite())
                .isEqualTo(
                        "./weir bench --all --compaction long --keys 40000000 --table-option"
                                + " snapshot.expire.in-job=true --work-dir '/tmp/a b'");
    }

    @Test
    void partitionsAreForOneRun() {
        StringWriter err = new StringWriter();
        CommandLine command = BenchCommand.commandLine();
        command.setErr(new PrintWriter(err, true));

        int exitCode =
                command.execute("--all", "--partitions", "10", "--work-dir", work.toString());

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString())
                .startsWith(
                        "weir bench: --partitions applies to one run (--sink): --all compares"
                                + " sinks on BENCHMARK.md's unpartitioned table (partitioned"
                                + " fan-out runs: --fan-out PxB)"
                                + System.lineSeparator());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "10y10 | --fan-out takes bucket counts (100) or partitions x buckets (10x10),"
                        + " separated by commas; got '10y10'",
                "0x10 | A fan-out run needs at least one partition and one bucket; got 0 x 10",
                "-5 | A fan-out run needs at least one partition and one bucket; got 1 x -5",
            })
    void badFanOutsAreUsageErrorsBeforeAnyRun(String fanOut, String message) throws Exception {
        StringWriter err = new StringWriter();
        CommandLine command = BenchCommand.commandLine();
        command.setErr(new PrintWriter(err, true));

        int exitCode =
                command.execute(
                        "--all",
                        "--compaction",
                        "on",
                        "--fan-out",
                        "1," + fanOut,
                        "--work-dir",
                        work.toString());

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString()).startsWith("weir bench: " + message + System.lineSeparator());
        // Nothing ran: the work directory holds only the child JVMs' logging configuration.
        try (var files = Files.list(work)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactly("log4j2.properties");
        }
    }

    @Test
    void aSinkThatDoesNotRunOnFlink23IsAUsageError() {
        assertUsageError(
                "--flink",
                "2.3",
                "hudi",
                "The sink 'hudi' does not run on Flink 2.3; there the sinks are weir, paimon,"
                        + " blackhole");
    }

    /** Found before the driver starts a MiniDFSCluster. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "hdfs:///lake | | --warehouse must be hdfs or hdfs://host:port/path, not"
                        + " hdfs:///lake",
                "hdfs | http://127.0.0.1:9870 | --namenode-http goes with --warehouse"
                        + " hdfs://host:port/path (with --warehouse hdfs the bench starts its own"
                        + " cluster)",
            })
    void badHdfsWarehousesAreUsageErrors(String warehouse, String nameNodeHttp, String message) {
        Map<String, String> more = new LinkedHashMap<>();
        more.put("--warehouse", warehouse);
        if (nameNodeHttp != null) {
            more.put("--namenode-http", nameNodeHttp);
        }
        assertUsageError(more, "weir", message);
    }

    private void assertUsageError(String option, String value, String sink, String message) {
        assertUsageError(Map.of(option, value), sink, message);
    }

    private void assertUsageError(Map<String, String> more, String sink, String message) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("--sink", sink);
        options.put("--schema", "1");
        options.put("--source", "gen");
        options.put("--work-dir", work.toString());
        options.putAll(more);
        List<String> args = new ArrayList<>();
        options.forEach(
                (name, v) -> {
                    args.add(name);
                    args.add(v);
                });
        StringWriter err = new StringWriter();
        CommandLine command = BenchCommand.commandLine();
        command.setErr(new PrintWriter(err, true));

        int exitCode = command.execute(args.toArray(new String[0]));

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString())
                .isEqualTo(
                        "weir bench: "
                                + message
                                + System.lineSeparator()
                                + "Try 'weir bench --help'."
                                + System.lineSeparator());
    }
}
