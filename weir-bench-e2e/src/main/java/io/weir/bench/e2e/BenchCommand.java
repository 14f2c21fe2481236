package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.SourceKind;
import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.Phase;
import io.weir.bench.e2e.job.SinkKind;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code weir bench}: the end-to-end ingestion benchmark of BENCHMARK.md (docs/benchmark.md). One
 * run prints one JSON line; {@code --all} runs every sink on every schema and writes BENCHMARKS.md.
 */
@Command(
        name = "weir bench",
        mixinStandardHelpOptions = true,
        description = {
            "Ingests generated rows into a sink with Flink, in a child JVM of its own, and prints"
                    + " one JSON line of figures (docs/benchmark.md).",
            "  weir bench --sink weir|paimon|hudi|blackhole|shuffle|blackhole117 --schema 1|2|3|4"
                    + " [--rows N]",
            "  weir bench --all [--rows-scale F] [--repeat R]   (writes BENCHMARKS.md)",
            "  weir bench --all --warehouse s3|hdfs [--also-local]   (BENCHMARKS-s3.md,"
                    + " BENCHMARKS-hdfs.md)",
            "  weir bench --flink 2.3 ...   (the same on Flink 2.3: weir, paimon and blackhole)"
        })
public final class BenchCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
            names = "--sink",
            description = "weir, paimon, hudi, blackhole, shuffle or blackhole117")
    String sink;

    @Option(
            names = "--flink",
            defaultValue = "1.20",
            description =
                    "the Flink the sinks run on: 1.20 (default; Hudi on 1.17) or 2.3 (weir,"
                            + " paimon, blackhole)")
    String flink;

    @Option(names = "--schema", description = "1, 2, 3 or 4 (schema1 ... schema4)")
    String schema;

    @Option(
            names = "--rows",
            description = "rows to ingest (default: BENCHMARK.md's for the schema and sink)")
    Long rows;

    @Option(
            names = "--keys",
            description =
                    "keys of every run, uniform in [0, N) (default: the run's rows / 5, each key"
                            + " written about five times); a table of a fixed size for long runs")
    Long keys;

    @Option(names = "--all", description = "every sink on every schema, then BENCHMARKS.md")
    boolean all;

    @Option(
            names = "--rows-scale",
            defaultValue = "1",
            description = "--all: BENCHMARK.md's row counts times this (default ${DEFAULT-VALUE})")
    double rowsScale;

    @Option(
            names = "--repeat",
            defaultValue = "2",
            description =
                    "--all: runs of each sink and schema, interleaved (default ${DEFAULT-VALUE})")
    int repeat;

    @Option(
            names = "--sinks",
            split = ",",
            description = "--all: only these sinks (their blackholes are always included)")
    List<String> sinks;

    @Option(names = "--schemas", split = ",", description = "--all: only these schemas")
    List<String> schemas;

    @Option(
            names = "--no-lifecycle",
            description = "--all: skip the lifecycle runs (ingest, compact, count, scan)")
    boolean noLifecycle;

    @Option(
            names = "--lifecycle",
            description = "one run: also compact, COUNT(*) and scan after the ingestion")
    boolean lifecycle;

    @Option(names = "--no-verify", description = "do not read the table back to check it")
    boolean noVerify;

    @Option(names = "--parallelism", defaultValue = "2", description = "default ${DEFAULT-VALUE}")
    int parallelism;

    @Option(names = "--buckets", defaultValue = "4", description = "default ${DEFAULT-VALUE}")
    int buckets;

    @Option(
            names = "--partitions",
            defaultValue = "1",
            description =
                    "partition the table by a column part = key mod N, each partition of --buckets"
                            + " buckets (file groups = partitions x buckets); one run (--sink)"
                            + " only; default ${DEFAULT-VALUE}: unpartitioned")
    int partitions;

    @Option(
            names = "--checkpoint-interval-ms",
            description = "default 10000; 2000 with --compaction on or long")
    Long checkpointIntervalMs;

    @Option(names = "--heap", defaultValue = "6g", description = "-Xmx of the child JVMs")
    String heap;

    @Option(
            names = "--work-dir",
            description =
                    "tables and logs (default: <tmp>/weir-bench); tables are deleted after"
                            + " each run")
    Path workDir;

    @Option(names = "--keep", description = "keep each run's tables")
    boolean keep;

    @Option(
            names = "--report",
            description = "--all: the report to write (default: BENCHMARKS.md in the repository)")
    Path report;

    @Option(
            names = "--timeout-minutes",
            defaultValue = "120",
            description = "kill a run after this long (default ${DEFAULT-VALUE})")
    long timeoutMinutes;

    @Option(names = "--verbose", description = "show the child JVMs' logs")
    boolean verbose;

    @Option(
            names = "--bulk-insert",
            description =
                    "one run: a batch job of unique keys with each sink's bulk insert instead of"
                            + " streaming upserts")
    boolean bulkInsert;

    @Option(
            names = "--source",
            defaultValue = "gen",
            description =
                    "gen (deterministic, tables checked row by row; default) or datagen (Flink's"
                            + " datagen as BENCHMARK.md declares it; tables checked by keys and"
                            + " value shapes)")
    String source;

    @Option(
            names = "--warehouse",
            description =
                    "s3 (start versitygw and use it) or s3://bucket/path: Weir's and Paimon's"
                            + " tables on S3 (docs/benchmark.md, \"On S3\"); hdfs (start a"
                            + " MiniDFSCluster and use it) or hdfs://host:port/path: on HDFS"
                            + " (\"On HDFS\")")
    String warehouse;

    @Option(
            names = "--namenode-http",
            description =
                    "--warehouse hdfs://...: the NameNode's web server, http://host:port, to read"
                            + " its operation counters from (default: not counted)")
    String nameNodeHttp;

    @Option(names = "--s3-endpoint", description = "--warehouse s3://...: the S3 endpoint URI")
    String s3Endpoint;

    @Option(
            names = "--conf",
            description =
                    "a storage option KEY=VALUE for --warehouse (s3.region, s3.access-key,"
                            + " s3.secret-key, s3.path-style-access, ...; docs/options.md)")
    Map<String, String> conf;

    @Option(
            names = "--compaction",
            defaultValue = "off",
            description =
                    "off (BENCHMARK.md's write-only tables; default), on (each sink's default"
                            + " in-writer compaction, checkpoints every 2 s, the table's history"
                            + " replayed; with --all: BENCHMARKS-compaction.md) or long"
                            + " (--all: schema1, weir and paimon, a timeline plotted;"
                            + " BENCHMARKS-compaction-long.md)")
    String compaction;

    @Option(
            names = "--table-option",
            description =
                    "a table option KEY=VALUE of the sinks' tables, put over the benchmark's"
                            + " (for example compaction.threads=1); every sink of the run gets it,"
                            + " so name one sink with --sink")
    Map<String, String> tableOptions;

    @Option(
            names = "--fan-out",
            split = ",",
            description =
                    "--all --compaction on: the file groups of the memory runs, each B buckets"
                            + " or PxB (P partitions of B buckets; default 1,100,1000,10000; 0 for"
                            + " none)")
    List<String> fanOut;

    @Option(
            names = "--time-limit",
            description =
                    "stop an ingestion that has not ended after this many seconds (its table is"
                            + " not checked); with --all --compaction on only the fan-out runs'"
                            + " (default there "
                            + CompactionSuite.DEFAULT_FAN_OUT_SECONDS
                            + "), elsewhere every run's (default: none)")
    Long timeLimit;

    @Option(
            names = "--also-local",
            description =
                    "--all --warehouse: also run Weir and Paimon on local disk in the same suite")
    boolean alsoLocal;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command, with bad values of {@code --sink}, {@code --schema} or {@code --source} (found
     * in {@link #call()}) reported as usage errors: their message and exit code 2, no stack trace.
     */
    static CommandLine commandLine() {
        return new CommandLine(new BenchCommand())
                .setExecutionExceptionHandler(
                        (e, cmd, parsed) -> {
                            if (!(e instanceof IllegalArgumentException)) {
                                throw e;
                            }
                            cmd.getErr().println("weir bench: " + e.getMessage());
                            cmd.getErr().println("Try 'weir bench --help'.");
                            return cmd.getCommandSpec().exitCodeOnInvalidInput();
                        });
    }

    @Override
    public Integer call() throws Exception {
        Path home = Path.of(System.getProperty("weir.home", ".")).toAbsolutePath().normalize();
        Path dir =
                workDir != null
                        ? workDir
                        : Path.of(System.getProperty("java.io.tmpdir"), "weir-bench");
        Workspace workspace = new Workspace(dir.toAbsolutePath(), keep);
        BenchLibs libs = BenchLibs.inSourceTree(home);
        ChildJvm jvm =
                new ChildJvm(
                        libs,
                        heap,
                        workspace.log4jConfig(),
                        Duration.ofMinutes(timeoutMinutes),
                        verbose);
        SourceKind sourceKind = SourceKind.parse(source);
        if (bulkInsert && sourceKind == SourceKind.DATAGEN) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--bulk-insert needs unique keys, which only --source gen makes");
        }
        if (keys != null && (keys < 1 || bulkInsert)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--keys must be at least 1, and does not apply to --bulk-insert (every row is"
                            + " a key of its own); got "
                            + keys);
        }
        if (timeLimit != null && timeLimit < 1) {
            throw new IllegalArgumentException(
                    "--time-limit must be at least 1 (seconds); got " + timeLimit);
        }
        CompactionMode mode = CompactionMode.parse(compaction);
        if (mode != CompactionMode.OFF && (bulkInsert || lifecycle || warehouse != null)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--compaction on or long is a streaming ingestion on local disk: no"
                            + " --bulk-insert, --lifecycle or --warehouse");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException(
                    "--partitions must be at least 1; got " + partitions);
        }
        if (partitions > 1 && all) {
            throw new IllegalArgumentException(
                    "--partitions applies to one run (--sink): --all compares sinks on"
                            + " BENCHMARK.md's unpartitioned table (partitioned fan-out runs:"
                            + " --fan-out PxB)");
        }
        RunSetup setup =
                new RunSetup(
                        parallelism,
                        buckets,
                        partitions,
                        checkpointIntervalMs != null
                                ? checkpointIntervalMs
                                : mode == CompactionMode.OFF ? 10_000 : 2_000,
                        heap,
                        bulkInsert,
                        sourceKind,
                        mode != CompactionMode.OFF,
                        tableOptions == null ? Map.of() : tableOptions,
                        keys == null ? 0 : keys,
                        timeLimit == null || (all && mode == CompactionMode.ON) ? 0 : timeLimit);
        List<SinkKind> flinkSinks = flinkSinks();
        if (mode != CompactionMode.OFF && !flinkSinks.contains(SinkKind.WEIR)) {
            // Its history readers (PaimonHistory) are built against Paimon's Flink 1.20 jar.
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--compaction on|long runs on Flink 1.20 only: no --flink");
        }
        if (warehouse != null) {
            if (!flinkSinks.contains(SinkKind.WEIR)) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this), "--warehouse runs on Flink 1.20 only: no --flink");
            }
            if (bulkInsert || lifecycle) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this),
                        "--warehouse runs the streaming ingestion only: no --bulk-insert or"
                                + " --lifecycle");
            }
            Map<String, String> storage = new LinkedHashMap<>();
            if (conf != null) {
                storage.putAll(conf);
            }
            boolean hdfs = warehouse.equals("hdfs") || warehouse.startsWith("hdfs:");
            if (hdfs && s3Endpoint != null) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this), "--s3-endpoint goes with an s3 warehouse");
            }
            if (!hdfs && nameNodeHttp != null) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this), "--namenode-http goes with an hdfs warehouse");
            }
            if (s3Endpoint != null) {
                storage.put("s3.endpoint", s3Endpoint);
            }
            try (RemoteStore store =
                    hdfs
                            ? HdfsSetup.open(
                                    warehouse, storage, workspace.dir(), keep, libs, nameNodeHttp)
                            : S3Setup.open(warehouse, storage, workspace.dir(), keep)) {
                Runs runs = new Runs(workspace, jvm, setup, System.err, store);
                return all ? runStoreSuite(runs, home, setup) : runOne(runs, workspace);
            }
        }
        if (alsoLocal) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--also-local goes with --all --warehouse");
        }
        Runs runs = new Runs(workspace, jvm, setup, System.err);
        if (all && mode != CompactionMode.OFF) {
            return runCompactionSuite(runs, home, mode);
        }
        if (all) {
            if (sink != null || schema != null || rows != null || bulkInsert) {
                throw new CommandLine.ParameterException(
                        new CommandLine(this),
                        "--all runs every sink and schema: no --sink, --schema, --rows or"
                                + " --bulk-insert");
            }
            Suite suite =
                    new Suite(
                            sinks == null
                                    ? flinkSinks
                                    : sinks.stream().map(this::sinkKind).toList(),
                            schemas == null
                                    ? Arrays.asList(Workload.values())
                                    : schemas.stream().map(Workload::parse).toList(),
                            rowsScale,
                            repeat,
                            !noLifecycle,
                            !noVerify);
            Path target = report != null ? report : home.resolve("BENCHMARKS.md");
            return suite.run(runs, System.out, new ReportWriter(target, describeSuite(), setup));
        }
        return runOne(runs, workspace);
    }

    private int runStoreSuite(Runs runs, Path home, RunSetup setup) throws Exception {
        if (sink != null || schema != null || rows != null) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--all runs every sink and schema: no --sink, --schema or --rows");
        }
        StoreSuite suite =
                new StoreSuite(
                        sinks == null
                                ? List.of(SinkKind.WEIR, SinkKind.PAIMON)
                                : sinks.stream().map(SinkKind::parse).toList(),
                        schemas == null
                                ? Arrays.asList(Workload.values())
                                : schemas.stream().map(Workload::parse).toList(),
                        rowsScale,
                        repeat,
                        alsoLocal,
                        !noVerify);
        Path target =
                report != null
                        ? report
                        : home.resolve(StoreReport.of(runs.store().name()).fileName());
        return suite.run(runs, System.out, target, describeSuite(), setup);
    }

    private int runCompactionSuite(Runs runs, Path home, CompactionMode mode) throws Exception {
        if (sink != null || schema != null) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--all runs every sink and schema: no --sink or --schema");
        }
        boolean longRun = mode == CompactionMode.LONG;
        CompactionSuite suite =
                new CompactionSuite(
                        sinks == null
                                ? List.of(SinkKind.WEIR, SinkKind.PAIMON)
                                : sinks.stream().map(SinkKind::parse).toList(),
                        longRun
                                ? List.of(Workload.SCHEMA1)
                                : schemas == null
                                        ? List.of(Workload.SCHEMA1, Workload.SCHEMA2)
                                        : schemas.stream().map(Workload::parse).toList(),
                        rowsScale,
                        rows,
                        longRun ? 1 : repeat,
                        longRun
                                ? List.of()
                                : fanOut == null
                                        ? CompactionSuite.DEFAULT_FAN_OUT
                                        : fanOut.stream()
                                                .filter(g -> !g.trim().equals("0"))
                                                .map(FanOut::parse)
                                                .toList(),
                        timeLimit != null ? timeLimit : CompactionSuite.DEFAULT_FAN_OUT_SECONDS,
                        longRun,
                        !noVerify && !longRun);
        Path target =
                report != null
                        ? report
                        : home.resolve(
                                longRun
                                        ? "BENCHMARKS-compaction-long.md"
                                        : "BENCHMARKS-compaction.md");
        return suite.run(runs, System.out, target, describeSuite());
    }

    private int runOne(Runs runs, Workspace workspace) throws Exception {
        if (sink == null || schema == null) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "Give --sink and --schema, or --all");
        }
        SinkKind kind = sinkKind(sink);
        Workload workload = Workload.parse(schema);
        long n = rows != null ? rows : Runs.defaultRows(kind, workload, 1);
        List<Phase> phases = Runs.phases(kind, lifecycle, !noVerify);
        RunResult result = runs.run(kind, workload, n, phases);
        System.out.println(result.summary());
        if (!result.ok() || Boolean.FALSE.equals(result.verified())) {
            System.err.println("weir bench: the run failed or its table is wrong; its log ends:");
            ChildJvm.printTail(workspace.logOf(result.settings().dir()), 40, System.err);
            return 1;
        }
        return 0;
    }

    /** The sinks of {@code --flink}'s line (an unknown line is a usage error). */
    private List<SinkKind> flinkSinks() {
        return SinkKind.onFlink(flink);
    }

    /** A sink named on the command line, on {@code --flink}'s line: weir is weir2 on 2.3. */
    private SinkKind sinkKind(String name) {
        return SinkKind.parse(name).on(flink);
    }

    /**
     * The command line of the suite, for the report: the arguments as given, so that the report
     * names every option that shaped its runs.
     */
    String describeSuite() {
        StringBuilder s = new StringBuilder("./weir bench");
        for (String arg : spec.commandLine().getParseResult().originalArgs()) {
            s.append(' ').append(arg.isEmpty() || arg.contains(" ") ? "'" + arg + "'" : arg);
        }
        return s.toString();
    }
}
