package io.weir.flink.s3;

import io.weir.aws.testing.S3Server;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.io.FileStatus;
import io.weir.options.StorageOptions;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Weir through Flink SQL with the warehouse on a real S3-compatible server ({@link S3Server}):
 * streaming upserts and deletes with checkpoints, a batch read, compaction and cleaning, all
 * checked against an independent model; the storage options (credentials) reach every task and are
 * never stored or shown.
 */
class S3SqlEndToEndTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final int KEYS = 300;
    private static final long CHANGES = 20_000;

    @Test
    @Timeout(300)
    void streamingUpsertsBatchReadCompactionAndCleaningOnS3() throws Exception {
        S3Server server = S3Server.get();
        String warehouse = "s3://" + S3Server.BUCKET + "/" + UUID.randomUUID() + "/lake";
        String catalog =
                "CREATE CATALOG lake WITH ('type' = 'weir', 'warehouse' = '"
                        + warehouse
                        + "', 's3.endpoint' = '"
                        + server.endpoint()
                        + "', 's3.path-style-access' = 'true', 's3.region' = 'us-east-1',"
                        + " 's3.access-key' = '"
                        + S3Server.ACCESS_KEY
                        + "', 's3.secret-key' = '"
                        + S3Server.SECRET_KEY
                        + "')";

        StreamExecutionEnvironment streamEnv = StreamExecutionEnvironment.getExecutionEnvironment();
        streamEnv.setParallelism(2);
        streamEnv.enableCheckpointing(300);
        StreamTableEnvironment streaming = StreamTableEnvironment.create(streamEnv);
        StreamExecutionEnvironment batchStreamEnv =
                StreamExecutionEnvironment.getExecutionEnvironment();
        batchStreamEnv.setParallelism(2);
        TableEnvironment batch =
                StreamTableEnvironment.create(batchStreamEnv, EnvironmentSettings.inBatchMode());
        for (TableEnvironment env : List.of(streaming, batch)) {
            env.executeSql(catalog);
            env.executeSql("USE CATALOG lake");
        }
        batch.executeSql(
                "CREATE TABLE items (id BIGINT, name STRING, v BIGINT, PRIMARY KEY (id) NOT"
                        + " ENFORCED) WITH ('bucket' = '3')");

        // Upserts and deletes over KEYS keys, committed at every checkpoint.
        DataStream<Row> changes =
                streamEnv
                        .fromSource(
                                new NumberSequenceSource(0, CHANGES - 1),
                                WatermarkStrategy.noWatermarks(),
                                "changes")
                        .setParallelism(1)
                        .map(new Change())
                        .returns(
                                new RowTypeInfo(
                                        org.apache.flink.api.common.typeinfo.Types.LONG,
                                        org.apache.flink.api.common.typeinfo.Types.STRING,
                                        org.apache.flink.api.common.typeinfo.Types.LONG))
                        .setParallelism(1);
        streaming.createTemporaryView(
                "changes",
                streaming.fromChangelogStream(
                        changes,
                        Schema.newBuilder()
                                .column("f0", DataTypes.BIGINT().notNull())
                                .column("f1", DataTypes.STRING())
                                .column("f2", DataTypes.BIGINT())
                                .primaryKey("f0")
                                .build()));
        await(streaming.executeSql("INSERT INTO items SELECT * FROM changes"));

        List<String> expected = expectedRows();
        assertThat(rows(batch, "SELECT * FROM items"))
                .containsExactlyInAnyOrderElementsOf(expected);
        long commits = count(batch, "SELECT COUNT(*) FROM `items$commits`");
        assertThat(commits).isGreaterThanOrEqualTo(2);

        // Compaction through the procedure: one compaction commit, the same rows.
        rows(
                batch,
                "CALL lake.sys.compact(`table` => 'default.items', compact_strategy => 'full')");
        assertThat(rows(batch, "SELECT * FROM items"))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(
                        rows(
                                batch,
                                "SELECT commit_kind FROM `items$commits` WHERE commit_id = "
                                        + (commits + 1)))
                .containsExactly("+I[COMPACT]");
        assertThat(rows(batch, "SELECT DISTINCT file_kind FROM `items$files`"))
                .containsExactly("+I[BASE]");

        // Cleaning: expire everything but the latest snapshot, then its files are all there is.
        rows(
                batch,
                "CALL lake.sys.expire_snapshots(`table` => 'default.items', retain_last => 1,"
                        + " older_than => '0 s')");
        StorageOptions storage = S3Server.get().options();
        FileIO io = FileIOs.forLocation(warehouse, storage);
        String table = warehouse + "/default.db/items";
        List<String> live = rows(batch, "SELECT file_path FROM `items$files`");
        List<String> dataFiles = new ArrayList<>();
        for (FileStatus file : io.listRecursive(table)) {
            String relative = file.path().substring(table.length() + 1);
            if (!relative.startsWith("_weir/")) {
                dataFiles.add("+I[" + relative + "]");
            }
        }
        assertThat(dataFiles).containsExactlyInAnyOrderElementsOf(live);
        assertThat(rows(batch, "SELECT * FROM items"))
                .containsExactlyInAnyOrderElementsOf(expected);

        // The credentials were given to the catalog only: stored nowhere, shown nowhere.
        for (FileStatus file : io.listRecursive(table + "/_weir")) {
            String text = new String(io.readAllBytes(file.path()), StandardCharsets.UTF_8);
            assertThat(text)
                    .as(file.path())
                    .doesNotContain(S3Server.SECRET_KEY)
                    .doesNotContain("s3.");
        }
        String ddl = String.join("\n", rows(batch, "SHOW CREATE TABLE items"));
        assertThat(ddl).contains("'bucket' = '3'").doesNotContain(S3Server.SECRET_KEY);
    }

    /** Change i: key i mod KEYS; every seventh change deletes its key. */
    private static final class Change
            implements org.apache.flink.api.common.functions.MapFunction<Long, Row>, Serializable {
        @Override
        public Row map(Long i) throws InterruptedException {
            if (i % 1000 == 999) {
                Thread.sleep(100); // about 2 s of input: several checkpoints, so several commits
            }
            long key = i % KEYS;
            if (i % 7 == 3) {
                return Row.ofKind(RowKind.DELETE, key, null, null);
            }
            return Row.ofKind(RowKind.UPDATE_AFTER, key, "n" + i, i * 10);
        }
    }

    private static List<String> expectedRows() {
        Map<Long, String> model = new TreeMap<>();
        for (long i = 0; i < CHANGES; i++) {
            long key = i % KEYS;
            if (i % 7 == 3) {
                model.remove(key);
            } else {
                model.put(key, "+I[" + key + ", n" + i + ", " + (i * 10) + "]");
            }
        }
        return new ArrayList<>(model.values());
    }

    private static long count(TableEnvironment env, String query) throws Exception {
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            return ((Number) it.next().getField(0)).longValue();
        }
    }

    private static List<String> rows(TableEnvironment env, String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        return out;
    }

    private static void await(TableResult result) throws Exception {
        result.await();
    }
}
