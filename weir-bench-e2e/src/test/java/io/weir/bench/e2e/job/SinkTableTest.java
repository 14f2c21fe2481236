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
        SinkTable table = new SinkTable(SinkKind.WEIR, Workload.SCHEMA1, DIR, 2, 4);
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
        assertThat(new SinkTable(SinkKind.WEIR, Workload.SCHEMA1, DIR, 2, 4, null, true).options())
                .containsExactly(
                        entry("bucket", "4"),
                        entry("write-only", "false"),
                        entry("file.compression", "snappy"));
        assertThat(
                        new SinkTable(SinkKind.PAIMON, Workload.SCHEMA2, DIR, 2, 100, null, true)
                                .options())
                .containsExactly(
                        entry("bucket", "100"),
                        entry("write-only", "false"),
                        entry("file.format", "parquet"),
                        entry("file.compression", "snappy"));
        assertThat(new SinkTable(SinkKind.HUDI, Workload.SCHEMA1, DIR, 2, 4, null, true).options())
                .containsEntry("compaction.schedule.enabled", "true")
                .containsEntry("compaction.async.enabled", "true");
    }

    @Test
    void tableOptionsGoOverTheBenchmarksButNotOnABlackhole() {
        Map<String, String> extra = Map.of("compaction.threads", "1", "file.compression", "zstd");
        assertThat(
                        new SinkTable(SinkKind.WEIR, Workload.SCHEMA1, DIR, 2, 4, null, true, extra)
                                .options())
                .containsEntry("compaction.threads", "1")
                .containsEntry("file.compression", "zstd")
                .containsEntry("bucket", "4");
        assertThat(
                        new SinkTable(
                                        SinkKind.BLACKHOLE,
                                        Workload.SCHEMA1,
                                        DIR,
                                        2,
                                        4,
                                        null,
                                        true,
                                        extra)
                                .options())
                .containsExactly(entry("connector", "blackhole"));
    }

    @Test
    void paimonWritesParquetWithSnappyAndNoCompaction() {
        SinkTable table = new SinkTable(SinkKind.PAIMON, Workload.SCHEMA2, DIR, 2, 4);
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
        SinkTable table = new SinkTable(SinkKind.HUDI, Workload.SCHEMA1, DIR, 2, 4);
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
    void blackholesHaveNoTable() {
        SinkTable table = new SinkTable(SinkKind.BLACKHOLE117, Workload.SCHEMA4, DIR, 2, 4);
        assertThat(table.options()).containsExactly(entry("connector", "blackhole"));
        assertThat(table.tableDir()).isNull();
    }

    private static java.util.Map.Entry<String, String> entry(String key, String value) {
        return java.util.Map.entry(key, value);
    }
}
