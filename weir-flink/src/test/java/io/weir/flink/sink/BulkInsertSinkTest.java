package io.weir.flink.sink;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Table;
import io.weir.Tables;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sink with {@link WriteMode#BULK_INSERT} in a batch job: a changelog with updates and deletes
 * (keyed) gives the same table as the streaming upsert job of the same changes, in one commit of
 * base files (and a delete log per file group whose winner of some key is a delete); writers spill
 * and clean their spill directory; append-only tables get every row; streaming jobs are refused.
 */
class BulkInsertSinkTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final int KEYS = 20_000;

    @TempDir Path dir;
    @TempDir Path spill;

    private static StreamExecutionEnvironment env(RuntimeExecutionMode mode) {
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.RUNTIME_MODE, mode);
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(100);
        }
        return env;
    }

    private static void run(StreamExecutionEnvironment env, long n, boolean keyed, WeirSink sink)
            throws Exception {
        env.fromSource(new NumberSequenceSource(0, n - 1), WatermarkStrategy.noWatermarks(), "seq")
                .setParallelism(1)
                .map(new Changes.Generator(keyed, KEYS, 0), sink.inputType())
                .setParallelism(1)
                .sinkTo(sink)
                .setParallelism(2);
        env.execute();
    }

    @Test
    void keyedChangesEqualTheStreamingUpsertJob() throws Exception {
        long n = 80_000;
        Table bulk =
                Tables.create(
                        dir.resolve("bulk").toString(), SinkTestTables.keyedSchema(), options());
        Table upsert =
                Tables.create(
                        dir.resolve("upsert").toString(), SinkTestTables.keyedSchema(), options());
        run(
                env(RuntimeExecutionMode.BATCH),
                n,
                true,
                WeirSink.builder()
                        .location(bulk.location())
                        .writeMode(WriteMode.BULK_INSERT)
                        .writeBufferSize(1 << 20)
                        .spillDirectory(spill.toString())
                        .build());
        run(
                env(RuntimeExecutionMode.STREAMING),
                n,
                true,
                WeirSink.builder().location(upsert.location()).build());

        assertThat(SinkTestTables.read(bulk.location()))
                .isEqualTo(Changes.keyedModel(n, KEYS))
                .isEqualTo(SinkTestTables.read(upsert.location()));
        bulk.refresh();
        assertThat(bulk.currentSnapshot().id()).isEqualTo(1);
        Commit commit = bulk.commit(1);
        // 3 partitions x 4 buckets: a base file each, and a delete log where a key's last change
        // was a delete.
        assertThat(commit.added().stream().filter(f -> f.kind() == FileKind.BASE)).hasSize(12);
        assertThat(commit.added().stream().filter(f -> f.kind() == FileKind.LOG))
                .hasSizeBetween(1, 12);
        for (DataFile f : commit.added()) {
            assertThat(f.sequence()).isBetween(1L, 24L);
        }
        assertSpillDirectoryEmpty();
    }

    @Test
    void appendOnlyTablesGetEveryRow() throws Exception {
        long n = 30_000;
        Table table =
                Tables.create(
                        dir.resolve("events").toString(), SinkTestTables.appendSchema(), options());
        run(
                env(RuntimeExecutionMode.BATCH),
                n,
                false,
                WeirSink.builder()
                        .location(table.location())
                        .writeMode(WriteMode.BULK_INSERT)
                        .spillDirectory(spill.toString())
                        .build());
        assertThat(SinkTestTables.read(table.location())).isEqualTo(Changes.appendModel(n));
        table.refresh();
        assertThat(table.currentSnapshot().files()).allMatch(f -> f.kind() == FileKind.BASE);
        assertSpillDirectoryEmpty();
    }

    @Test
    void streamingJobsAreRefused() {
        Table table =
                Tables.create(dir.resolve("t").toString(), SinkTestTables.keyedSchema(), options());
        WeirSink sink =
                WeirSink.builder()
                        .location(table.location())
                        .writeMode(WriteMode.BULK_INSERT)
                        .build();
        assertThatThrownBy(() -> run(env(RuntimeExecutionMode.STREAMING), 10, true, sink))
                .hasMessageContaining("Cannot bulk insert into table " + table.location())
                .hasMessageContaining("'write.mode' = 'bulk-insert'")
                .hasMessageContaining("'execution.runtime-mode' = 'batch'");
        assertThat(sink.writeMode()).isEqualTo(WriteMode.BULK_INSERT);
        assertThat(sink.toString()).contains("bulk-insert");
    }

    private static java.util.Map<String, String> options() {
        return java.util.Map.of("bucket", "4", "page-size", "4 kb", "write-only", "true");
    }

    private void assertSpillDirectoryEmpty() throws IOException {
        try (Stream<Path> left = Files.list(spill)) {
            assertThat(left).as("spill files left").isEmpty();
        }
    }
}
