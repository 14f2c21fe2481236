package io.weir.flink.sink;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.Table;
import io.weir.Tables;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The sink end to end on a MiniCluster: commit points, routing, types, metrics. */
class WeirSinkTest {
    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                            .setNumberTaskManagers(2)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    private static StreamExecutionEnvironment env(RuntimeExecutionMode mode) {
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.RUNTIME_MODE, mode);
        conf.set(PipelineOptions.GENERIC_TYPES, false); // any Kryo fallback fails the job graph
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(100);
        }
        return env;
    }

    private static void source(
            StreamExecutionEnvironment env, long n, boolean keyed, int perMilli, WeirSink sink) {
        env.fromSource(new NumberSequenceSource(0, n - 1), WatermarkStrategy.noWatermarks(), "seq")
                .setParallelism(1)
                .map(new Changes.Generator(keyed, 97, perMilli), sink.inputType())
                .setParallelism(1)
                .sinkTo(sink)
                .setParallelism(2);
    }

    /**
     * Streaming with checkpoints: a commit per checkpoint with data, the last at the final
     * checkpoint; in every commit each file group was written by one writer, always the same.
     */
    @Test
    void keyedTableStreamingOneWriterPerFileGroup() throws Exception {
        String location = SinkTestTables.create(dir, SinkTestTables.keyedSchema(), 4).location();
        RecordingHook hook = new RecordingHook("routing-" + location);
        WeirSink sink = WeirSink.builder().location(location).hook(hook).build();
        long n = 4000;
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING);
        source(env, n, true, 4, sink);
        JobClient job = env.executeAsync("keyed");
        job.getJobExecutionResult().get();

        assertThat(SinkTestTables.read(location)).isEqualTo(Changes.keyedModel(n, 97));
        Table table = Tables.load(location);
        long commits = table.currentSnapshot().id();
        assertThat(commits).as("commits").isGreaterThan(2);
        Set<String> writerIds = new HashSet<>();
        Map<FileGroupId, Integer> writerOf = new HashMap<>();
        for (long id = 1; id <= commits; id++) {
            Commit commit = table.commit(id);
            if (commit.kind() == CommitKind.COMPACT) {
                continue; // in-job compaction: base files of no writer
            }
            writerIds.add(commit.writerId());
            Map<FileGroupId, Set<Integer>> writers = new HashMap<>();
            for (DataFile f : commit.added()) {
                Integer subtask = hook.writers().get(f.path());
                writers.computeIfAbsent(f.fileGroup(), g -> new HashSet<>()).add(subtask);
                writerOf.merge(
                        f.fileGroup(),
                        subtask,
                        (a, b) -> {
                            assertThat(a).as("writer of %s", f.fileGroup()).isEqualTo(b);
                            return a;
                        });
            }
            writers.forEach(
                    (group, subtasks) ->
                            assertThat(subtasks).as("writers of %s", group).hasSize(1));
        }
        assertThat(writerIds).hasSize(1);
        assertThat(writerIds.iterator().next()).startsWith("weir-" + job.getJobID());
        // 3 partitions x 4 buckets over 2 writers: both get work.
        assertThat(new HashSet<>(writerOf.values())).containsExactlyInAnyOrder(0, 1);

        assertMetrics(job.getJobID());
    }

    private static void assertMetrics(JobID job) {
        Map<String, Metric> metrics = new HashMap<>();
        METRICS.getMetricsByGroup()
                .forEach(
                        (group, byName) -> {
                            if (job.toString().equals(group.getAllVariables().get("<job_id>"))) {
                                byName.forEach(
                                        (name, m) ->
                                                metrics.put(group.getMetricIdentifier(name), m));
                            }
                        });
        long records = 0;
        for (Map.Entry<String, Metric> e : metrics.entrySet()) {
            if (e.getKey().endsWith(".weir.records")) {
                records += (Long) ((Gauge<?>) e.getValue()).getValue();
            }
        }
        // Every row, -U included (a retraction of its key).
        assertThat(records).as("weir.records over all writers").isEqualTo(4000);
        Set<String> names = new HashSet<>();
        metrics.keySet().stream()
                .filter(k -> k.contains(".weir."))
                .forEach(k -> names.add(k.substring(k.lastIndexOf(".weir.") + 6)));
        assertThat(names)
                .contains(
                        "records",
                        "bytes",
                        "flushes",
                        "filesWritten",
                        "bytesWritten",
                        "flushTimeMs",
                        "bufferUsedBytes",
                        "bufferCapacityBytes",
                        "commits",
                        "committedFiles",
                        "committedRecords",
                        "lastCommitDurationMs",
                        "lastCommittedCheckpoint",
                        "lastCommitId");
    }

    /** Batch: one commit at end of input, with the deterministic writer id. */
    @Test
    void appendTableBatchCommitsOnceAtEndOfInput() throws Exception {
        String location = SinkTestTables.create(dir, SinkTestTables.appendSchema(), 2).location();
        WeirSink sink = WeirSink.builder().location(location).commitUser("batch").build();
        long n = 3000;
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        source(env, n, false, 0, sink);
        JobClient job = env.executeAsync("batch");
        job.getJobExecutionResult().get();

        assertThat(SinkTestTables.read(location)).isEqualTo(Changes.appendModel(n));
        Table table = Tables.load(location);
        assertThat(table.currentSnapshot().id()).isEqualTo(1);
        Commit commit = table.commit(1);
        assertThat(commit.checkpointId()).isEqualTo(1);
        assertThat(commit.writerId()).startsWith("batch-" + job.getJobID() + "-");
        assertThat(commit.writerId().split("-")).hasSize(3);
        // Writer i appended to bucket i % 2: both buckets of each partition.
        assertThat(commit.added().stream().map(DataFile::bucket).distinct())
                .containsExactlyInAnyOrder(0, 1);
    }

    /** Every type in the job graph, the sink's topology included, has a real serializer. */
    @Test
    void jobGraphHasNoGenericTypes() {
        String location = SinkTestTables.create(dir, SinkTestTables.keyedSchema(), 4).location();
        WeirSink sink = WeirSink.builder().location(location).build();
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING);
        source(env, 10, true, 0, sink);
        StreamGraph graph = env.getStreamGraph(); // would throw on a generic type, as configured
        assertThat(graph.getStreamNodes())
                .extracting(StreamNode::getOperatorName)
                .anyMatch(name -> name.contains("Writer"))
                .anyMatch(name -> name.contains("Weir commit aggregator"))
                .anyMatch(name -> name.contains("Committer"));
        for (StreamNode node : graph.getStreamNodes()) {
            List<TypeSerializer<?>> serializers = new ArrayList<>();
            serializers.add(node.getTypeSerializerOut());
            serializers.addAll(List.of(node.getTypeSerializersIn()));
            for (TypeSerializer<?> s : serializers) {
                assertThat(s).as("a serializer of %s", node).isNotInstanceOf(KryoSerializer.class);
            }
        }
        assertThat(sink.inputType()).isEqualTo(InternalTypeInfo.of(sink.rowType()));
    }
}
