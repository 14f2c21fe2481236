package io.weir.flink.compaction;

import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.Table;
import io.weir.Tables;
import io.weir.exceptions.ValidationException;
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
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The compaction job on a MiniCluster: on a table with many logs it keeps the rows, drops the file
 * count, and honours the partition filter.
 */
class CompactionJobTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path dir;

    @Test
    void compactsAPartitionThenTheWholeTable() throws Exception {
        TestTable t = new TestTable(dir, Map.of("bucket", "3"));
        Random random = new Random(31);
        for (int i = 0; i < 8; i++) {
            t.randomChanges(random, 80, 150);
            t.commit();
        }
        List<List<Object>> before = rows(t);
        Map<FileGroupId, List<DataFile>> groupsBefore = groups(t);
        String day = TestTable.DAYS[0];

        String printed =
                run(
                        CompactionJob.Options.parse(
                                new String[] {
                                    "--table",
                                    t.location,
                                    "--partition",
                                    "dt=" + day,
                                    "--min-log-files",
                                    "2",
                                    "--parallelism",
                                    "2"
                                }));
        assertThat(printed)
                .contains("Compacting 3 file groups")
                .contains("Compacted 3 file groups");
        assertThat(rows(t)).isEqualTo(before);
        groups(t)
                .forEach(
                        (group, files) -> {
                            if (group.partition().values().get(0).equals(day)) {
                                assertThat(files).as("files of %s", group).hasSize(1);
                            } else {
                                assertThat(files).isEqualTo(groupsBefore.get(group));
                            }
                        });

        run(CompactionJob.Options.parse(new String[] {"--table", t.location, "--full"}));
        assertThat(groups(t).values()).allSatisfy(files -> assertThat(files).hasSize(1));
        assertThat(rows(t)).isEqualTo(before);
        assertThat(run(CompactionJob.Options.parse(new String[] {"--table", t.location})))
                .contains("Nothing to compact");
    }

    @Test
    void argumentsAreChecked() {
        assertThatThrownBy(() -> CompactionJob.Options.parse(new String[] {"--full"}))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("--table");
        assertThatThrownBy(
                        () ->
                                CompactionJob.Options.parse(
                                        new String[] {"--table", "x", "--min-log-files", "0"}))
                .hasMessageContaining("--min-log-files must be at least 1");
        assertThatThrownBy(() -> CompactionJob.Options.parse(new String[] {"--table", "x", "-y"}))
                .hasMessageContaining("Unknown argument '-y'");
    }

    private static String run(CompactionJob.Options options) throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompactionJob.run(env, options, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    static List<List<Object>> rows(TestTable t) {
        Table table = Tables.load(t.location);
        List<List<Object>> rows = TestTable.rows(table.newScan().rows(), table.schema().rowType());
        rows.sort((a, b) -> a.toString().compareTo(b.toString()));
        return rows;
    }

    private static Map<FileGroupId, List<DataFile>> groups(TestTable t) {
        return Tables.load(t.location).currentSnapshot().fileGroups();
    }
}
