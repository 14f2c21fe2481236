package io.weir.bench.e2e.job;

import io.weir.bench.e2e.gen.SourceKind;
import io.weir.bench.e2e.gen.Workload;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobSettingsTest {
    private static final Path RUN = Path.of("/tmp/run");

    @Test
    void commandLineRoundTrips() {
        for (JobSettings settings :
                List.of(
                        JobSettings.builder(SinkKind.HUDI, Workload.SCHEMA3, 2_000_000, RUN)
                                .phases(List.of(Phase.INGEST, Phase.COMPACT, Phase.VERIFY))
                                .build(),
                        settings(SinkKind.WEIR, Workload.SCHEMA1, true, SourceKind.GEN),
                        settings(SinkKind.PAIMON, Workload.SCHEMA2, false, SourceKind.DATAGEN),
                        JobSettings.builder(SinkKind.PAIMON, Workload.SCHEMA1, 5_000, RUN)
                                .buckets(100)
                                .checkpointIntervalMs(2_000)
                                .compaction(true)
                                .build(),
                        JobSettings.builder(SinkKind.WEIR, Workload.SCHEMA1, 5_000, RUN)
                                .parallelism(3)
                                .checkpointIntervalMs(2_000)
                                .compaction(true)
                                .tableOptions(Map.of("compaction.threads", "1", "a.b", "x=y"))
                                .build(),
                        JobSettings.builder(SinkKind.WEIR, Workload.SCHEMA1, 5_000, RUN)
                                .keys(700)
                                .build(),
                        JobSettings.builder(SinkKind.PAIMON, Workload.SCHEMA1, 5_000, RUN)
                                .buckets(1_000)
                                .compaction(true)
                                .timeLimitSeconds(300)
                                .build(),
                        JobSettings.builder(SinkKind.WEIR, Workload.SCHEMA1, 5_000, RUN)
                                .partitions(100)
                                .buckets(10)
                                .compaction(true)
                                .build())) {
            assertThat(JobSettings.parse(settings.toArgs().toArray(new String[0])))
                    .isEqualTo(settings);
        }
    }

    @Test
    void partitionsArePositiveAndNotForTheShuffle() {
        assertThatThrownBy(
                        () ->
                                JobSettings.builder(SinkKind.WEIR, Workload.SCHEMA1, 5_000, RUN)
                                        .partitions(0)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("partitions must be positive");
        assertThatThrownBy(
                        () ->
                                JobSettings.builder(SinkKind.SHUFFLE, Workload.SCHEMA1, 5_000, RUN)
                                        .partitions(2)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "The shuffle sink shuffles by bucket only: --partitions does not apply to"
                                + " it");
    }

    @Test
    void aTableOptionIsKeyEqualsValue() {
        assertThatThrownBy(
                        () ->
                                JobSettings.parse(
                                        new String[] {
                                            "--sink",
                                            "weir",
                                            "--workload",
                                            "schema1",
                                            "--dir",
                                            "/tmp/run",
                                            "--table-option",
                                            "compaction.threads"
                                        }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid --table-option 'compaction.threads': expected KEY=VALUE");
    }

    @Test
    void bulkInsertsNeedTheGenSource() {
        assertThatThrownBy(
                        () -> settings(SinkKind.WEIR, Workload.SCHEMA1, true, SourceKind.DATAGEN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "A bulk insert needs unique keys, which only the gen source makes: use"
                                + " --source gen with --bulk-insert");
        assertThatThrownBy(() -> SourceKind.parse("kafka"))
                .hasMessage("Unknown source 'kafka': expected gen or datagen");
    }

    @Test
    void keysDefaultToAFifthOfTheRowsAndDoNotApplyToABulkInsert() {
        assertThat(JobSettings.builder(SinkKind.WEIR, Workload.SCHEMA1, 5_000, RUN).build().keys())
                .isEqualTo(1_000);
        assertThat(
                        JobSettings.builder(SinkKind.WEIR, Workload.SCHEMA1, 5_000, RUN)
                                .keys(700)
                                .build()
                                .toArgs())
                .containsSequence("--keys", "700");
        assertThatThrownBy(
                        () ->
                                JobSettings.builder(SinkKind.WEIR, Workload.SCHEMA1, 5_000, RUN)
                                        .bulkInsert(true)
                                        .keys(700)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "--keys does not apply to a bulk insert: every row is a key of its own");
    }

    private static JobSettings settings(
            SinkKind sink, Workload workload, boolean bulkInsert, SourceKind source) {
        return JobSettings.builder(sink, workload, 1_000, RUN)
                .phases(List.of(Phase.INGEST, Phase.VERIFY))
                .bulkInsert(bulkInsert)
                .source(source)
                .build();
    }

    @Test
    void rejectsIncompleteCommandLines() {
        assertThatThrownBy(() -> JobSettings.parse(new String[] {"--sink", "weir"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Usage");
        assertThatThrownBy(() -> SinkKind.parse("iceberg"))
                .hasMessageContaining("expected weir, paimon, hudi");
    }

    @Test
    void sinksRunOnTheirFlinkWithTheirJars() {
        assertThat(SinkKind.PAIMON.libs()).containsExactly("paimon", "hadoop", "flink-1.20");
        assertThat(SinkKind.HUDI.libs()).containsExactly("hudi", "hadoop", "flink-1.17");
        assertThat(SinkKind.WEIR.libs()).containsExactly("weir", "flink-1.20");
        assertThat(SinkKind.BLACKHOLE117.libs()).containsExactly("flink-1.17");
        assertThat(SinkKind.HUDI.ceiling()).isEqualTo(SinkKind.BLACKHOLE117);
        assertThat(SinkKind.WEIR.ceiling()).isEqualTo(SinkKind.BLACKHOLE);
    }
}
