package io.weir.cli.quickstart;

import io.weir.Table;
import io.weir.flink.FileIOLoader;
import io.weir.flink.FlinkTypes;
import io.weir.flink.sink.WeirSink;
import io.weir.options.StorageOptions;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The quickstart's job, query and check. */
public final class QuickStartJob {
    private final Table table;
    private final String warehouse;
    private final StorageOptions storage;
    private final PrintStream out;

    /**
     * @param warehouse the catalog's warehouse, which holds the table as {@code default.db/orders}
     * @param storage the storage options of the warehouse
     */
    public QuickStartJob(Table table, String warehouse, StorageOptions storage, PrintStream out) {
        this.table = table;
        this.warehouse = warehouse;
        this.storage = storage;
        this.out = out;
    }

    /** Runs the ingestion, the query and the check; returns the exit code (0 when it matches). */
    public int run(long changes, int keys, int parallelism, long checkpointIntervalMs)
            throws Exception {
        out.printf("Table %s%n  %s, 4 buckets%n", table.location(), table.schema());
        out.printf(
                "Streaming %,d order changes (upserts and 10%% deletes over %,d orders) with Flink,"
                        + " checkpoint every %d ms, %d writers.%nEach checkpoint commits one log file"
                        + " per bucket; changes to one order within a checkpoint fold into one record.%n",
                changes, keys, checkpointIntervalMs, parallelism);
        long started = System.nanoTime();
        try (CommitProgress progress = new CommitProgress(table, out).start()) {
            ingest(changes, keys, parallelism, checkpointIntervalMs);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        out.printf(
                "Ingested %,d changes in %.1f s (%,.0f changes/s), exactly once%n",
                changes, seconds, changes / seconds);

        Map<Long, List<Object>> expected = expected(changes, keys);
        return queryAndCheck(expected);
    }

    private void ingest(long changes, int keys, int parallelism, long checkpointIntervalMs)
            throws Exception {
        RowType rowType = FlinkTypes.toFlink(table.schema());
        WeirSink sink =
                WeirSink.builder()
                        .location(table.location())
                        .fileIO(FileIOLoader.of(table.location(), storage))
                        .rowType(rowType)
                        .build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        env.enableCheckpointing(checkpointIntervalMs);
        // One generator, so each order's changes reach its writer in order; the sink shuffles by
        // bucket.
        env.fromSource(
                        new NumberSequenceSource(0, changes - 1),
                        WatermarkStrategy.noWatermarks(),
                        "order changes")
                .setParallelism(1)
                .map(new ChangeGenerator(keys))
                .returns(sink.inputType())
                .setParallelism(1)
                .sinkTo(sink)
                .name("weir: " + table.location());
        env.execute("weir quickstart");
    }

    /** The table as it must be: every change applied in order. */
    static Map<Long, List<Object>> expected(long changes, int keys) {
        Map<Long, List<Object>> rows = new HashMap<>();
        for (long i = 0; i < changes; i++) {
            long id = ChangeGenerator.orderId(i, keys);
            if (ChangeGenerator.isDelete(i)) {
                rows.remove(id);
            } else {
                rows.put(
                        id,
                        List.of(
                                id,
                                ChangeGenerator.customer(i),
                                ChangeGenerator.amountCents(i),
                                ChangeGenerator.status(i)));
            }
        }
        return rows;
    }

    private int queryAndCheck(Map<Long, List<Object>> expected) throws Exception {
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.executeSql(
                "CREATE CATALOG quickstart WITH ('type' = 'weir', 'warehouse' = '"
                        + warehouse
                        + "'"
                        + catalogOptions(storage.toMap())
                        + ")");
        sql.executeSql("USE CATALOG quickstart");
        out.println();
        out.println("Flink SQL> SELECT status, COUNT(*) AS orders FROM orders GROUP BY status;");
        try (CloseableIterator<Row> it =
                sql.executeSql(
                                "SELECT status, COUNT(*) FROM orders GROUP BY status ORDER BY status")
                        .collect()) {
            it.forEachRemaining(r -> out.printf("  %-10s %,d%n", r.getField(0), r.getField(1)));
        }
        out.println("Flink SQL> SELECT * FROM orders WHERE order_id < 5;");
        try (CloseableIterator<Row> it =
                sql.executeSql("SELECT * FROM orders WHERE order_id < 5 ORDER BY order_id")
                        .collect()) {
            it.forEachRemaining(r -> out.println("  " + r));
        }

        int rows = 0;
        int wrong = 0;
        try (CloseableIterator<Row> it = sql.executeSql("SELECT * FROM orders").collect()) {
            while (it.hasNext()) {
                Row r = it.next();
                rows++;
                List<Object> values =
                        List.of(r.getField(0), r.getField(1), r.getField(2), r.getField(3));
                if (!values.equals(expected.get((Long) r.getField(0)))) {
                    wrong++;
                }
            }
        }
        out.println();
        if (rows != expected.size() || wrong != 0) {
            out.printf(
                    "MISMATCH: %,d rows read, %,d expected, %,d with wrong values%n",
                    rows, expected.size(), wrong);
            return 1;
        }
        out.printf(
                "Verified: the table holds exactly the %,d live orders, each with its latest value;"
                        + " deleted orders are gone.%n",
                rows);
        out.printf(
                "Try: ./weir sql -e \"CREATE CATALOG q WITH ('type'='weir', 'warehouse'='%s'%s);"
                        + " SET 'execution.runtime-mode'='batch';"
                        + " SELECT * FROM q.\\`default\\`.\\`orders\\$commits\\`;\"%n",
                warehouse, catalogOptions(shown(storage)));
        return 0;
    }

    /** The storage options as the rest of a CREATE CATALOG's WITH clause. */
    private static String catalogOptions(Map<String, String> options) {
        StringBuilder sql = new StringBuilder();
        options.forEach(
                (k, v) ->
                        sql.append(", '")
                                .append(k.replace("'", "''"))
                                .append("' = '")
                                .append(v.replace("'", "''"))
                                .append("'"));
        return sql.toString();
    }

    /** The options without secrets, which a printed command must not show. */
    private static Map<String, String> shown(StorageOptions storage) {
        Map<String, String> shown = new TreeMap<>();
        storage.toMap().forEach((k, v) -> shown.put(k, StorageOptions.isSecret(k) ? "..." : v));
        return shown;
    }

    public static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
