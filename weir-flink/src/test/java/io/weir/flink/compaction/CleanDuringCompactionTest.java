package io.weir.flink.compaction;

import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.source.TestTable;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25: the compaction job holds a writer lease, taken where it is planned and shared by its
 * rewrite tasks and its committer, until its commit has landed. An orphan removal that counts every
 * unreferenced file as old runs right before the job's commit file is written ({@link
 * CleanBeforeCompactionCommitIO}): it keeps the outputs, the commit lands, the lease is gone, the
 * rows are unchanged and every committed file exists. Without the lease the removal deletes the
 * outputs and the table then names missing files. (The in-job rounds: CleanDuringIngestionTest.)
 */
class CleanDuringCompactionTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @Test
    void theCompactionJobKeepsItsOutputsUntilItsCommit() throws Exception {
        TestTable t = new TestTable(dir, Map.of("bucket", "3"));
        Random random = new Random(5);
        for (int i = 0; i < 5; i++) {
            t.randomChanges(random, 80, 150);
            t.commit();
        }
        List<List<Object>> before = CompactionJobTest.rows(t);
        String location = t.location;
        CompactionJob.Options options =
                new CompactionJob.Options(
                        location,
                        () -> new CleanBeforeCompactionCommitIO(location),
                        null,
                        true,
                        -1,
                        2);
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        int groups =
                CompactionJob.run(
                        env,
                        options,
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThat(groups).isGreaterThan(1);
        assertThat(CleanBeforeCompactionCommitIO.cleans(location)).isEqualTo(1);
        assertThat(CleanBeforeCompactionCommitIO.leased(location)).isEqualTo(1);
        assertThat(CleanBeforeCompactionCommitIO.kept(location))
                .as("outputs the lease kept")
                .isPositive();
        Table done = Tables.load(location);
        assertThat(done.commit(done.currentSnapshot().id()).kind()).isEqualTo(CommitKind.COMPACT);
        assertThat(done.writerLeases().list()).as("the commit ended the lease").isEmpty();
        for (DataFile f : done.currentSnapshot().files()) {
            assertThat(new File(location, f.path())).as(f.path()).exists();
        }
        assertThat(CompactionJobTest.rows(t)).isEqualTo(before);
    }
}
