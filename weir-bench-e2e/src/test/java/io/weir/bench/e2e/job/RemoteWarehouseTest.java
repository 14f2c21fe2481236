package io.weir.bench.e2e.job;

import io.weir.bench.e2e.gen.Workload;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class RemoteWarehouseTest {
    private static final RemoteWarehouse REMOTE =
            new RemoteWarehouse(
                    "s3://weir-bench/runs/007-weir-s3/warehouse",
                    new TreeMap<>(
                            Map.of(
                                    "s3.endpoint", "http://127.0.0.1:9",
                                    "s3.path-style-access", "true",
                                    "s3.region", "us-east-1",
                                    "s3.access-key", "k",
                                    "s3.secret-key", "s")),
                    Path.of("/data/weir-bench/runs/007-weir-s3/warehouse"),
                    "http://127.0.0.1:8/__weir-bench/counts");

    @Test
    void optionsTravelInTheEnvironmentNotOnTheCommandLine() {
        assertThat(RemoteWarehouse.parseOptions(REMOTE.optionsText())).isEqualTo(REMOTE.options());
        JobSettings settings =
                JobSettings.builder(SinkKind.WEIR, Workload.SCHEMA2, 1000, Path.of("/tmp/run"))
                        .remote(REMOTE)
                        .build();
        assertThat(String.join(" ", settings.toArgs()))
                .contains("--warehouse s3://weir-bench/runs/007-weir-s3/warehouse")
                .doesNotContain("s3.secret-key")
                .doesNotContain("s3.access-key");
    }

    @Test
    void paimonGetsItsOwnOptionNames() {
        assertThat(REMOTE.paimonOptions())
                .containsEntry("s3.endpoint", "http://127.0.0.1:9")
                .containsEntry("s3.path.style.access", "true")
                .containsEntry("s3.endpoint.region", "us-east-1")
                .containsEntry("s3.access-key", "k")
                .containsEntry("s3.secret-key", "s")
                .containsEntry("s3.directory.marker.retention", "keep")
                .doesNotContainKey("s3.path-style-access");
    }

    @Test
    void catalogsOnS3() {
        SinkTable weir = table(SinkKind.WEIR, REMOTE);
        assertThat(weir.declare().get(0))
                .startsWith(
                        "CREATE CATALOG weir WITH ('type' = 'weir', 'warehouse' ="
                                + " 's3://weir-bench/runs/007-weir-s3/warehouse'")
                .contains("'s3.path-style-access' = 'true'");
        assertThat(weir.tableDir())
                .isEqualTo(Path.of("/data/weir-bench/runs/007-weir-s3/warehouse/default.db/bench"));
        SinkTable paimon = table(SinkKind.PAIMON, REMOTE);
        assertThat(paimon.declare().get(0))
                .contains("'warehouse' = 's3://weir-bench/runs/007-weir-s3/warehouse'")
                .contains("'s3.path.style.access' = 'true'");
    }

    @Test
    void onHdfsBothSinksGetTheHadoopOptionsAsTheyAre() {
        RemoteWarehouse hdfs =
                new RemoteWarehouse(
                        "hdfs://127.0.0.1:9000/weir-bench/007-weir-hdfs/warehouse",
                        Map.of("hadoop.dfs.replication", "1"),
                        null,
                        "http://127.0.0.1:8/counts");
        assertThat(hdfs.onS3()).isFalse();
        assertThat(REMOTE.onS3()).isTrue();
        assertThat(hdfs.countsPrefix()).isEqualTo("hdfs_");
        assertThat(REMOTE.countsPrefix()).isEqualTo("s3_");
        assertThat(hdfs.paimonOptions()).isEqualTo(Map.of("hadoop.dfs.replication", "1"));
        SinkTable weir = table(SinkKind.WEIR, hdfs);
        assertThat(weir.declare().get(0))
                .isEqualTo(
                        "CREATE CATALOG weir WITH ('type' = 'weir', 'warehouse' ="
                                + " 'hdfs://127.0.0.1:9000/weir-bench/007-weir-hdfs/warehouse',"
                                + " 'hadoop.dfs.replication' = '1')");
        assertThat(weir.tableDir()).isNull();
        SinkTable paimon = table(SinkKind.PAIMON, hdfs);
        assertThat(paimon.declare().get(0))
                .isEqualTo(
                        "CREATE CATALOG paimon WITH ('type' = 'paimon', 'warehouse' ="
                                + " 'hdfs://127.0.0.1:9000/weir-bench/007-weir-hdfs/warehouse',"
                                + " 'hadoop.dfs.replication' = '1')");
    }

    private static SinkTable table(SinkKind sink, RemoteWarehouse remote) {
        return new SinkTable(
                JobSettings.builder(sink, Workload.SCHEMA2, 1_000, Path.of("/tmp/run"))
                        .remote(remote)
                        .build());
    }
}
