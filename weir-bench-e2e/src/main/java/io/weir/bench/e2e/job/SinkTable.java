package io.weir.bench.e2e.job;

import io.weir.bench.e2e.gen.Workload;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The table a sink writes, with its settings of BENCHMARK.md, as Flink SQL statements. Weir and
 * Paimon tables live in their catalogs (so their reads find them), Hudi and blackhole tables are
 * connector tables of the default catalog.
 */
public final class SinkTable {
    /** The name of the benchmark's table in every sink. */
    static final String NAME = "bench";

    private final SinkKind kind;
    private final Workload workload;
    private final Path dir;
    private final int parallelism;
    private final int buckets;
    private final int partitions;
    private final RemoteWarehouse remote;
    private final boolean compaction;
    private final Map<String, String> extraOptions;

    /**
     * The table of a run: its sink, workload, directory (warehouses and tables go below it, or into
     * its remote warehouse: Weir and Paimon only), parallelism (Hudi's {@code write.tasks}),
     * buckets, compaction (each sink with its default in-writer compaction: Weir and Paimon without
     * {@code write-only}, Hudi with its async compaction) and table options put over the
     * benchmark's ({@code --table-option}).
     */
    public SinkTable(JobSettings settings) {
        SinkKind kind = settings.sink();
        RemoteWarehouse remote = settings.remote();
        if (remote != null
                && kind.system() != SinkKind.WEIR
                && kind.system() != SinkKind.PAIMON
                && kind.writesTable()) {
            throw new IllegalArgumentException(
                    "Only weir and paimon run with a warehouse on an object store, not "
                            + kind.id());
        }
        this.remote = remote;
        this.kind = kind;
        this.workload = settings.workload();
        this.dir = settings.dir();
        this.parallelism = settings.parallelism();
        this.buckets = settings.buckets();
        this.partitions = settings.partitions();
        this.compaction = settings.compaction();
        this.extraOptions = settings.tableOptions();
    }

    /** The table options of the sink: BENCHMARK.md's table, for the report too. */
    public Map<String, String> options() {
        Map<String, String> options = new LinkedHashMap<>();
        switch (kind) {
            case WEIR, WEIR2 -> {
                options.put("bucket", String.valueOf(buckets));
                options.put("write-only", String.valueOf(!compaction));
                // Paimon's compression class (Weir's default is zstd); its log files are LZ4.
                options.put("file.compression", "snappy");
            }
            case PAIMON, PAIMON2 -> {
                options.put("bucket", String.valueOf(buckets));
                options.put("write-only", String.valueOf(!compaction));
                options.put("file.format", "parquet");
                options.put("file.compression", "snappy");
            }
            case HUDI -> {
                options.put("connector", "hudi");
                options.put("path", tableDir().toUri().toString());
                options.put("table.type", "MERGE_ON_READ");
                options.put("write.operation", "upsert");
                options.put("index.type", "BUCKET");
                options.put("hoodie.bucket.index.num.buckets", String.valueOf(buckets));
                // Hudi's defaults are true: compaction planned every 5 delta commits and run by
                // compaction tasks inside the ingestion job. Off unless --compaction on.
                options.put("compaction.schedule.enabled", String.valueOf(compaction));
                options.put("compaction.async.enabled", String.valueOf(compaction));
                if (compaction) {
                    // Keeps every instant on the active timeline, which the history replays
                    // (HudiHistory); archiving changes no data file.
                    options.put("archive.min_commits", "1000000");
                    options.put("archive.max_commits", "1000001");
                }
                options.put("write.tasks", String.valueOf(parallelism));
            }
            case BLACKHOLE, BLACKHOLE2, BLACKHOLE117 -> options.put("connector", "blackhole");
            case SHUFFLE -> {
                options.put("connector", "weir-bench-shuffle");
                options.put("buckets", String.valueOf(buckets));
            }
        }
        if (kind.writesTable()) {
            options.putAll(extraOptions);
        }
        return options;
    }

    /**
     * The hint that makes a batch {@code INSERT} the sink's bulk insert: Weir's {@code write.mode}
     * (its batch default anyway); Paimon has no separate mode (a batch write of a primary-key
     * table, sorted and merged by its writers, is how it loads); Hudi's {@code bulk_insert}
     * operation, shuffled by bucket, unsorted: its sort ({@code write.bulk_insert.sort_input})
     * needs the code generator of {@code flink-table-planner}, which a Flink distribution keeps in
     * {@code opt/} behind the planner loader (docs/benchmark.md).
     */
    public String bulkInsertHint() {
        return switch (kind) {
            case WEIR, WEIR2 -> "/*+ OPTIONS('write.mode' = 'bulk-insert') */";
            case HUDI ->
                    "/*+ OPTIONS('write.operation' = 'bulk_insert',"
                            + " 'write.bulk_insert.shuffle_input' = 'true',"
                            + " 'write.bulk_insert.sort_input' = 'false') */";
            case PAIMON, PAIMON2, BLACKHOLE, BLACKHOLE2, SHUFFLE, BLACKHOLE117 -> "";
        };
    }

    /**
     * The query that feeds the table from {@code source}: every column, and with partitions the
     * partition column {@code part}, the key modulo their number.
     */
    String selectFrom(String source) {
        return partitions > 1
                ? "SELECT *, " + partitionOf(workload.keyColumn()) + " AS part FROM " + source
                : "SELECT * FROM " + source;
    }

    /** A read of the workload's columns (without the partition column) in table order. */
    String selectColumns() {
        return "SELECT " + workload.columnNames() + " FROM " + qualifiedName();
    }

    /** The rows whose partition column is not their key's partition; null if unpartitioned. */
    String countMisplaced() {
        return partitions > 1
                ? "SELECT COUNT(*) FROM "
                        + qualifiedName()
                        + " WHERE part <> "
                        + partitionOf(workload.keyColumn())
                : null;
    }

    private String partitionOf(String key) {
        return "CAST(MOD(" + key + ", " + partitions + ") AS INT)";
    }

    /** The statements that make the table usable in a new TableEnvironment (idempotent). */
    List<String> declare() {
        boolean partitioned = partitions > 1;
        String columns =
                workload.columnsDdl()
                        + (partitioned ? ", part INT" : "")
                        + ", PRIMARY KEY ("
                        + workload.keyColumn()
                        + (partitioned ? ", part" : "")
                        + ") NOT ENFORCED";
        String create =
                "CREATE TABLE IF NOT EXISTS "
                        + qualifiedName()
                        + " ("
                        + columns
                        + ") "
                        // the blackhole has no partitions: it takes the column and drops it
                        + (partitioned && kind.writesTable() ? "PARTITIONED BY (part) " : "")
                        + "WITH "
                        + with();
        return switch (kind) {
            case WEIR, WEIR2 ->
                    List.of(
                            "CREATE CATALOG weir WITH ('type' = 'weir', 'warehouse' = '"
                                    + (remote != null ? remote.uri() : warehouse().toString())
                                    + "'"
                                    + catalogOptions(remote == null ? Map.of() : remote.options())
                                    + ")",
                            create);
            case PAIMON, PAIMON2 ->
                    List.of(
                            "CREATE CATALOG paimon WITH ('type' = 'paimon', 'warehouse' = '"
                                    + (remote != null
                                            ? remote.uri()
                                            : warehouse().toUri().toString())
                                    + "'"
                                    + catalogOptions(
                                            remote == null ? Map.of() : remote.paimonOptions())
                                    + ")",
                            create);
            case HUDI, BLACKHOLE, BLACKHOLE2, SHUFFLE, BLACKHOLE117 -> List.of(create);
        };
    }

    /** The table's name in SQL. */
    String qualifiedName() {
        return switch (kind) {
            case WEIR, WEIR2 -> "weir.`default`." + NAME;
            case PAIMON, PAIMON2 -> "paimon.`default`." + NAME;
            case HUDI, BLACKHOLE, BLACKHOLE2, SHUFFLE, BLACKHOLE117 ->
                    "default_catalog.default_database." + NAME;
        };
    }

    /**
     * The table's directory on local disk, or null for a blackhole or the shuffle; on an object
     * store, where its objects lie on local disk (a versitygw's data directory), or null if
     * unknown.
     */
    public Path tableDir() {
        if (remote != null) {
            return remote.files() == null
                    ? null
                    : remote.files().resolve("default.db").resolve(NAME);
        }
        return switch (kind) {
            case WEIR, WEIR2, PAIMON, PAIMON2 -> warehouse().resolve("default.db").resolve(NAME);
            case HUDI -> dir.resolve(NAME);
            case BLACKHOLE, BLACKHOLE2, SHUFFLE, BLACKHOLE117 -> null;
        };
    }

    SinkKind kind() {
        return kind;
    }

    Workload workload() {
        return workload;
    }

    int parallelism() {
        return parallelism;
    }

    private Path warehouse() {
        return dir.resolve("warehouse");
    }

    /** Whether the table lives on an object store. */
    boolean remote() {
        return remote != null;
    }

    private static String catalogOptions(Map<String, String> options) {
        StringBuilder s = new StringBuilder();
        options.forEach(
                (k, v) ->
                        s.append(", '")
                                .append(k)
                                .append("' = '")
                                .append(v.replace("'", "''"))
                                .append('\''));
        return s.toString();
    }

    private String with() {
        return options().entrySet().stream()
                .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'")
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
