package io.weir.cli.services;

import io.weir.DataFile;
import io.weir.FileGroupId;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code weir compact}: same rows, fewer files, partition filter honoured, progress printed. */
class CompactCommandTest {
    @TempDir Path dir;

    @Test
    void compactsOnePartitionThenAll() {
        ServiceTable t = new ServiceTable(dir, 1);
        for (int i = 0; i < 8; i++) {
            t.commit(60);
        }
        List<List<Object>> before = t.rows();
        Map<FileGroupId, List<DataFile>> groupsBefore = t.groups();

        Cli one =
                Cli.run(
                        "compact",
                        "--table",
                        t.location,
                        "--partition",
                        "dt=2024-01-01",
                        "--min-log-files",
                        "2");
        assertThat(one.exit()).as(one.err()).isZero();
        assertThat(one.out())
                .contains("Compacting 2 file groups")
                .contains("[1/2] [2024-01-01]/bucket-")
                .contains("[2/2]")
                .contains("Committed commit 9: 2 file groups");
        assertThat(t.rows()).isEqualTo(before);
        t.groups()
                .forEach(
                        (group, files) -> {
                            if (group.partition().values().get(0).equals("2024-01-01")) {
                                assertThat(files).as("files of %s", group).hasSize(1);
                            } else {
                                assertThat(files).isEqualTo(groupsBefore.get(group));
                            }
                        });

        Cli all = Cli.run("compact", "--table", t.location);
        assertThat(all.exit()).as(all.err()).isZero();
        assertThat(all.out()).contains("Compacting 2 file groups").contains("Committed commit 10");
        assertThat(t.groups().values()).allSatisfy(files -> assertThat(files).hasSize(1));
        assertThat(t.rows()).isEqualTo(before);

        Cli nothing = Cli.run("compact", "--table", t.location);
        assertThat(nothing.out()).contains("Nothing to compact");
    }

    /** Two batch loads leave two overlapping base files per group: the default compacts them. */
    @Test
    void byDefaultCompactsEveryGroupWithMoreThanOneFileAsPaimonsBatchCompactDoes() {
        ServiceTable t = new ServiceTable(dir, 3);
        t.bulkLoad(0, 200);
        t.bulkLoad(100, 200);
        List<List<Object>> before = t.rows();
        assertThat(before).hasSize(300);
        assertThat(t.groups().values()).allSatisfy(files -> assertThat(files).hasSize(2));

        Cli cli = Cli.run("compact", "--table", t.location);
        assertThat(cli.exit()).as(cli.err()).isZero();
        assertThat(cli.out()).contains("Compacting 4 file groups").contains("Committed commit 3");
        assertThat(t.groups().values()).allSatisfy(files -> assertThat(files).hasSize(1));
        assertThat(t.rows()).isEqualTo(before);
    }

    /** Groups rewritten on several threads: one line per group, the same rows, one commit. */
    @Test
    void rewritesGroupsOnTheThreadsAsked() {
        ServiceTable t = new ServiceTable(dir, 5);
        for (int i = 0; i < 4; i++) {
            t.commit(60);
        }
        List<List<Object>> before = t.rows();

        Cli cli = Cli.run("compact", "--table", t.location, "--threads", "3");
        assertThat(cli.exit()).as(cli.err()).isZero();
        assertThat(cli.out())
                .contains("Compacting 4 file groups")
                .contains("on 3 threads")
                .contains("[1/4] ")
                .contains("[4/4] ")
                .contains("(100% of bytes)")
                .contains("Committed commit 5: 4 file groups");
        assertThat(cli.out().lines().filter(l -> l.startsWith("  [")).count()).isEqualTo(4);
        assertThat(t.groups().values()).allSatisfy(files -> assertThat(files).hasSize(1));
        assertThat(t.rows()).isEqualTo(before);

        t.commit(60);
        Cli defaults = Cli.run("compact", "--table", t.location);
        assertThat(defaults.out())
                .as("the table's compaction.threads")
                .contains("Compacting 4 file groups")
                .contains("on 2 threads");
    }

    @Test
    void refusesZeroLogFilesZeroThreadsAndTwoModesAtOnce() {
        ServiceTable t = new ServiceTable(dir, 4);
        t.commit(10);
        t.commit(10);
        Map<FileGroupId, List<DataFile>> before = t.groups();
        Cli zero = Cli.run("compact", "--table", t.location, "--min-log-files", "0");
        assertThat(zero.exit()).isEqualTo(2);
        assertThat(zero.err())
                .contains(
                        "Invalid value 0 for --min-log-files: must be at least 1 (without it every"
                                + " file group with a log file or more than one file is"
                                + " compacted)");
        Cli both = Cli.run("compact", "--table", t.location, "--full", "--min-log-files", "2");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("Give one of --full, --min-log-files N and --due");
        Cli noThreads = Cli.run("compact", "--table", t.location, "--threads", "0");
        assertThat(noThreads.exit()).isEqualTo(2);
        assertThat(noThreads.err())
                .contains(
                        "Invalid value 0 for --threads: must be between 1 and 64 (without it the"
                                + " table's compaction.threads)");
        assertThat(t.groups()).as("nothing was compacted").isEqualTo(before);
    }

    @Test
    void rejectsAPartitionKeyTheTableHasNot() {
        ServiceTable t = new ServiceTable(dir, 2);
        t.commit(10);
        Cli cli = Cli.run("compact", "--table", t.location, "--partition", "day=2024-01-01");
        assertThat(cli.exit()).isEqualTo(1);
        assertThat(cli.err()).contains("'day' is not a partition key").contains("[dt]");
    }
}
