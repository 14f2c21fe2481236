package io.weir.bench.e2e.job;

import io.weir.bench.e2e.gen.SourceKind;
import io.weir.bench.e2e.gen.Workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one child JVM runs: a sink, a workload, a row count and the phases, from its command line
 * ({@link #toArgs()} and {@link #parse} are inverses). With {@code bulkInsert} the ingestion is a
 * batch job of unique keys written with each sink's bulk insert (docs/benchmark.md); otherwise the
 * keys are uniform in {@code [0, keys)}; {@code source} says where the rows come from; {@code
 * tableOptions} are put over the benchmark's table options ({@code --table-option}); {@code
 * timeLimitSeconds}, if positive, stops an ingestion that has not ended by then; {@code
 * partitions}, above 1, partitions the table by a column {@code part} = key mod {@code partitions},
 * each partition of {@code buckets} buckets.
 */
public record JobSettings(
        SinkKind sink,
        Workload workload,
        long rows,
        long keys,
        int parallelism,
        int buckets,
        int partitions,
        long checkpointIntervalMs,
        Path dir,
        List<Phase> phases,
        boolean bulkInsert,
        SourceKind source,
        RemoteWarehouse remote,
        boolean compaction,
        Map<String, String> tableOptions,
        long timeLimitSeconds) {

    public JobSettings {
        if (rows < 1 || keys < 1 || parallelism < 1 || buckets < 1 || checkpointIntervalMs < 1) {
            throw new IllegalArgumentException(
                    "rows, keys, parallelism, buckets and checkpoint interval must be positive");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be positive");
        }
        if (partitions > 1 && sink == SinkKind.SHUFFLE) {
            throw new IllegalArgumentException(
                    "The shuffle sink shuffles by bucket only: --partitions does not apply to it");
        }
        if (timeLimitSeconds < 0) {
            throw new IllegalArgumentException("A time limit must not be negative");
        }
        if (bulkInsert && keys != Workload.keys(rows)) {
            throw new IllegalArgumentException(
                    "--keys does not apply to a bulk insert: every row is a key of its own");
        }
        if (bulkInsert && source == SourceKind.DATAGEN) {
            throw new IllegalArgumentException(
                    "A bulk insert needs unique keys, which only the gen source makes: use"
                            + " --source gen with --bulk-insert");
        }
        phases = List.copyOf(phases);
        tableOptions = Collections.unmodifiableMap(new TreeMap<>(tableOptions));
    }

    /**
     * Settings for {@code rows} of {@code workload} into {@code sink} under {@code dir}, with
     * BENCHMARK.md's defaults until set otherwise: keys uniform in {@code [0, rows / 5)},
     * parallelism 2, 4 buckets, checkpoints every 10 s, the ingestion alone, streaming upserts from
     * the gen source, on local disk, without compaction and without extra table options.
     */
    public static Builder builder(SinkKind sink, Workload workload, long rows, Path dir) {
        return new Builder(sink, workload, rows, dir);
    }

    /** Builds {@link JobSettings}; see {@link #builder}. */
    public static final class Builder {
        private final SinkKind sink;
        private final Workload workload;
        private final long rows;
        private final Path dir;
        private long keys;
        private int parallelism = 2;
        private int buckets = 4;
        private int partitions = 1;
        private long checkpointIntervalMs = 10_000;
        private List<Phase> phases = List.of(Phase.INGEST);
        private boolean bulkInsert;
        private SourceKind source = SourceKind.GEN;
        private RemoteWarehouse remote;
        private boolean compaction;
        private Map<String, String> tableOptions = Map.of();
        private long timeLimitSeconds;

        private Builder(SinkKind sink, Workload workload, long rows, Path dir) {
            this.sink = sink;
            this.workload = workload;
            this.rows = rows;
            this.keys = Workload.keys(rows);
            this.dir = dir;
        }

        /** Keys uniform in {@code [0, keys)}: a table of a fixed size ({@code --keys}). */
        public Builder keys(long value) {
            this.keys = value;
            return this;
        }

        public Builder parallelism(int value) {
            this.parallelism = value;
            return this;
        }

        public Builder buckets(int value) {
            this.buckets = value;
            return this;
        }

        /** Partitions of {@code buckets} buckets each; 1: an unpartitioned table. */
        public Builder partitions(int value) {
            this.partitions = value;
            return this;
        }

        public Builder checkpointIntervalMs(long value) {
            this.checkpointIntervalMs = value;
            return this;
        }

        public Builder phases(List<Phase> value) {
            this.phases = value;
            return this;
        }

        /** A batch bulk insert of unique keys instead of streaming upserts. */
        public Builder bulkInsert(boolean value) {
            this.bulkInsert = value;
            return this;
        }

        public Builder source(SourceKind value) {
            this.source = value;
            return this;
        }

        /** The warehouse on an object store or HDFS; null for local disk under the run's dir. */
        public Builder remote(RemoteWarehouse value) {
            this.remote = value;
            return this;
        }

        /** Each sink with its default in-writer compaction ({@code --compaction on}). */
        public Builder compaction(boolean value) {
            this.compaction = value;
            return this;
        }

        /** Table options put over the benchmark's ({@code --table-option}). */
        public Builder tableOptions(Map<String, String> value) {
            this.tableOptions = value;
            return this;
        }

        /** Stops the ingestion after this many seconds if it has not ended (0: never). */
        public Builder timeLimitSeconds(long value) {
            this.timeLimitSeconds = value;
            return this;
        }

        public JobSettings build() {
            return new JobSettings(
                    sink,
                    workload,
                    rows,
                    keys,
                    parallelism,
                    buckets,
                    partitions,
                    checkpointIntervalMs,
                    dir,
                    phases,
                    bulkInsert,
                    source,
                    remote,
                    compaction,
                    tableOptions,
                    timeLimitSeconds);
        }
    }

    public List<String> toArgs() {
        List<String> args = new ArrayList<>();
        args.addAll(List.of("--sink", sink.id(), "--workload", workload.id()));
        args.addAll(List.of("--rows", String.valueOf(rows)));
        if (keys != Workload.keys(rows)) {
            args.addAll(List.of("--keys", String.valueOf(keys)));
        }
        args.addAll(List.of("--parallelism", String.valueOf(parallelism)));
        args.addAll(List.of("--buckets", String.valueOf(buckets)));
        if (partitions > 1) {
            args.addAll(List.of("--partitions", String.valueOf(partitions)));
        }
        args.addAll(List.of("--checkpoint-interval-ms", String.valueOf(checkpointIntervalMs)));
        args.addAll(List.of("--dir", dir.toString()));
        args.addAll(List.of("--phases", String.join(",", phases.stream().map(Phase::id).toList())));
        args.addAll(List.of("--write-mode", bulkInsert ? "bulk-insert" : "upsert"));
        args.addAll(List.of("--source", source.id()));
        if (compaction) {
            args.addAll(List.of("--compaction", "on"));
        }
        tableOptions.forEach((k, v) -> args.addAll(List.of("--table-option", k + "=" + v)));
        if (timeLimitSeconds > 0) {
            args.addAll(List.of("--time-limit-s", String.valueOf(timeLimitSeconds)));
        }
        if (remote != null) {
            args.addAll(List.of("--warehouse", remote.uri()));
            if (remote.files() != null) {
                args.addAll(List.of("--warehouse-files", remote.files().toString()));
            }
            if (remote.countsUrl() != null) {
                args.addAll(List.of("--counts-url", remote.countsUrl()));
            }
        }
        return args;
    }

    public static JobSettings parse(String[] args) {
        SinkKind sink = null;
        Workload workload = null;
        long rows = 0;
        Long keys = null;
        int parallelism = 0;
        int buckets = 0;
        int partitions = 1;
        long interval = 0;
        Path dir = null;
        List<Phase> phases = List.of();
        boolean bulkInsert = false;
        SourceKind source = SourceKind.GEN;
        String warehouse = null;
        Path warehouseFiles = null;
        String countsUrl = null;
        boolean compaction = false;
        Map<String, String> tableOptions = new TreeMap<>();
        long timeLimit = 0;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--sink" -> sink = SinkKind.parse(value);
                case "--workload" -> workload = Workload.parse(value);
                case "--rows" -> rows = Long.parseLong(value);
                case "--keys" -> keys = Long.parseLong(value);
                case "--parallelism" -> parallelism = Integer.parseInt(value);
                case "--buckets" -> buckets = Integer.parseInt(value);
                case "--partitions" -> partitions = Integer.parseInt(value);
                case "--checkpoint-interval-ms" -> interval = Long.parseLong(value);
                case "--dir" -> dir = Path.of(value);
                case "--phases" ->
                        phases = Arrays.stream(value.split(",")).map(Phase::parse).toList();
                case "--write-mode" -> bulkInsert = value.equals("bulk-insert");
                case "--source" -> source = SourceKind.parse(value);
                case "--warehouse" -> warehouse = value;
                case "--warehouse-files" -> warehouseFiles = Path.of(value);
                case "--counts-url" -> countsUrl = value;
                case "--compaction" -> compaction = value.equals("on");
                case "--time-limit-s" -> timeLimit = Long.parseLong(value);
                case "--table-option" -> {
                    int eq = value.indexOf('=');
                    if (eq < 1) {
                        throw new IllegalArgumentException(
                                "Invalid --table-option '" + value + "': expected KEY=VALUE");
                    }
                    tableOptions.put(value.substring(0, eq), value.substring(eq + 1));
                }
                default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
            }
        }
        if (sink == null || workload == null || dir == null || args.length % 2 != 0) {
            throw new IllegalArgumentException(
                    "Usage: --sink S --workload W --rows N --parallelism P --buckets B"
                            + " --checkpoint-interval-ms MS --dir DIR --phases ingest,...");
        }
        return builder(sink, workload, rows, dir)
                .keys(keys != null ? keys : Workload.keys(rows))
                .parallelism(parallelism)
                .buckets(buckets)
                .partitions(partitions)
                .checkpointIntervalMs(interval)
                .phases(phases)
                .bulkInsert(bulkInsert)
                .source(source)
                .remote(
                        warehouse == null
                                ? null
                                : new RemoteWarehouse(
                                        warehouse,
                                        RemoteWarehouse.parseOptions(
                                                System.getenv(RemoteWarehouse.OPTIONS_ENV)),
                                        warehouseFiles,
                                        countsUrl))
                .compaction(compaction)
                .tableOptions(tableOptions)
                .timeLimitSeconds(timeLimit)
                .build();
    }
}
