package io.weir.bench.e2e.job;

import io.weir.bench.e2e.gen.Workload;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The table settings of BENCHMARK.md. */
class SinkTableTest {
    private static final Path DIR = Path.of("/bench/run");

    @Test
    void weirWritesABucketedTableWithoutCompaction() {
        SinkTable table = table(SinkKind.WEIR, Workload.SCHEMA1, 4, false, Map.of());
        assertThat(table.options())
                .containsExactly(
                        entry("bucket", "4"),
                        entry("write-only", "true"),
                        entry("file.compression", "snappy"));
        assertThat(table.declare().get(0)).contains("'type' = 'weir'", "/bench/run/warehouse");
        assertThat(table.declare().get(1))
                .startsWith("CREATE TABLE IF NOT EXISTS weir.`default`.bench (item_id BIGINT")
                .contains("PRIMARY KEY (item_id) NOT ENFORCED");
        assertThat(table.tableDir()).isEqualTo(DIR.resolve("warehouse/default.db/bench"));
    }

    @Test
    void compactionOnLeavesEachSinkItsDefaultInWriterCompaction() {
        assertThat(table(SinkKind.WEIR, Workload.SCHEMA1, 4, true, Map.of()).options())
                .containsExactly(
                        entry("bucket", "4"),
                        entry("write-only", "false"),
                        entry("file.compression", "snappy"));
        assertThat(table(SinkKind.PAIMON, Workload.SCHEMA2, 100, true, Map.of()).options())
                .containsExactly(
                        entry("bucket", "100"),
                        entry("write-only", "false"),
                        entry("file.format", "parquet"),
                        entry("file.compression", "snappy"));
        assertThat(table(SinkKind.HUDI, Workload.SCHEMA1, 4, true, Map.of()).options())
                .containsEntry("compaction.schedule.enabled", "true")
                .containsEntry("compaction.async.enabled", "true");
    }

    @Test
    void tableOptionsGoOverTheBenchmarksButNotOnABlackhole() {
        Map<String, String> extra = Map.of("compaction.threads", "1", "file.compression", "zstd");
        assertThat(table(SinkKind.WEIR, Workload.SCHEMA1, 4, true, extra).options())
                .containsEntry("compaction.threads", "1")
                .containsEntry("file.compression", "zstd")
                .containsEntry("bucket", "4");
        assertThat(table(SinkKind.BLACKHOLE, Workload.SCHEMA1, 4, true, extra).options())
                .containsExactly(entry("connector", "blackhole"));
    }

    @Test
    void paimonWritesParquetWithSnappyAndNoCompaction() {
        SinkTable table = table(SinkKind.PAIMON, Workload.SCHEMA2, 4, false, Map.of());
        assertThat(table.options())
                .containsExactly(
                        entry("bucket", "4"),
                        entry("write-only", "true"),
                        entry("file.format", "parquet"),
                        entry("file.compression", "snappy"));
        assertThat(table.declare().get(0))
                .contains("'type' = 'paimon'", "file:///bench/run/warehouse");
        assertThat(table.declare().get(1)).contains("PRIMARY KEY (id) NOT ENFORCED");
    }

    @Test
    void hudiWritesMergeOnReadWithABucketIndexAndNoCompaction() {
        SinkTable table = table(SinkKind.HUDI, Workload.SCHEMA1, 4, false, Map.of());
        assertThat(table.options())
                .containsEntry("connector", "hudi")
                .containsEntry("path", "file:///bench/run/bench")
                .containsEntry("table.type", "MERGE_ON_READ")
                .containsEntry("write.operation", "upsert")
                .containsEntry("index.type", "BUCKET")
                .containsEntry("hoodie.bucket.index.num.buckets", "4")
                .containsEntry("compaction.schedule.enabled", "false")
                .containsEntry("compaction.async.enabled", "false")
                .containsEntry("write.tasks", "2");
    }

    @Test
    void partitionsAddAColumnOfTheKeyModuloTheirNumber() {
        for (SinkKind sink : new SinkKind[] {SinkKind.WEIR, SinkKind.PAIMON, SinkKind.HUDI}) {
            SinkTable table =
                    new SinkTable(
                            JobSettings.builder(sink, Workload.SCHEMA2, 1_000, DIR)
                                    .partitions(100)
                                    .buckets(10)
                                    .build());
            String create = table.declare().get(table.declare().size() - 1);
            assertThat(create)
                    .contains(
                            "s20 STRING, part INT, PRIMARY KEY (id, part) NOT ENFORCED)"
                                    + " PARTITIONED BY (part) WITH");
            assertThat(table.selectFrom("src"))
                    .isEqualTo("SELECT *, CAST(MOD(id, 100) AS INT) AS part FROM src");
            assertThat(table.selectColumns())
                    .startsWith("SELECT id, s1, s2, ")
                    .endsWith(", s20 FROM " + table.qualifiedName());
            assertThat(table.countMisplaced())
                    .isEqualTo(
                            "SELECT COUNT(*) FROM "
                                    + table.qualifiedName()
                                    + " WHERE part <> CAST(MOD(id, 100) AS INT)");
        }
        SinkTable blackhole =
                new SinkTable(
                        JobSettings.builder(SinkKind.BLACKHOLE, Workload.SCHEMA1, 1_000, DIR)
                                .partitions(100)
                                .build());
        assertThat(blackhole.declare().get(0))
                .contains(
                        "ts TIMESTAMP(3), part INT, PRIMARY KEY (item_id, part) NOT ENFORCED) WITH")
                .doesNotContain("PARTITIONED");
        SinkTable unpartitioned = table(SinkKind.WEIR, Workload.SCHEMA1, 4, false, Map.of());
        assertThat(unpartitioned.selectFrom("src")).isEqualTo("SELECT * FROM src");
        assertThat(unpartitioned.declare().get(1)).doesNotContain("part");
        assertThat(unpartitioned.countMisplaced()).isNull();
    }

    @Test
    void blackholesHaveNoTable() {
        SinkTable table = table(SinkKind.BLACKHOLE117, Workload.SCHEMA4, 4, false, Map.of());
        assertThat(table.options()).containsExactly(entry("connector", "blackhole"));
        assertThat(table.tableDir()).isNull();
    }

    private static SinkTable table(
            SinkKind sink,
            Workload workload,
            int buckets,
            boolean compaction,
            Map<String, String> tableOptions) {
        return new SinkTable(
                JobSettings.builder(sink, workload, 1_000, DIR)
                        .buckets(buckets)
                        .compaction(compaction)
                        .tableOptions(tableOptions)
                        .build());
    }

    private static java.util.Map.Entry<String, String> entry(String key, String value) {
        return java.util.Map.entry(key, value);
    }
}
