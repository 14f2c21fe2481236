package io.weir.commit;

import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.io.LocalFileIO;
import io.weir.testing.TestDataFiles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Logs of one table in one JVM hold one state per commit, equal to the one its files give. */
class SharedStatesTest {
    @TempDir Path dir;

    @Test
    void logsOfOneTableShareEachCommitsStateWhichEqualsTheStateReadFromItsFiles() {
        String location = dir.resolve("t").toString();
        FileCommitLog committer = tableWithOneCommit(location);

        // Opening a table reads its commit files (damage there is found), then holds the state
        // shared for that commit.
        CountingFileIO io = new CountingFileIO();
        FileCommitLog writer = FileCommitLog.load(io, location);
        assertThat(io.readsUnder("commits")).isEqualTo(1);
        assertThat(writer.current()).isSameAs(committer.current());

        // Appends, then a compaction that removes files: a refresh reads no commit file.
        for (int i = 1; i <= 4; i++) {
            committer.commit(CommitRequest.append(List.of(TestDataFiles.log("d", i % 2))));
        }
        List<DataFile> group0 = committer.current().files(TestDataFiles.log("d", 0).fileGroup());
        long merged = group0.stream().mapToLong(DataFile::sequence).max().orElseThrow();
        committer.commit(
                CommitRequest.compact(
                        group0.stream().map(DataFile::path).toList(),
                        List.of(TestDataFiles.base("d", 0, merged))));
        io.reset();
        TableState refreshed = writer.refresh();
        assertThat(refreshed.commitId()).isEqualTo(6);
        assertThat(refreshed).isSameAs(committer.current());
        assertThat(io.readsUnder("commits")).isZero();

        // The state the committer built is the one the files give to a reader of its own.
        assertThat(refreshed).isEqualTo(readFromFiles(location, 6));
        assertThat(refreshed.files(TestDataFiles.log("d", 0).fileGroup())).hasSize(1);
    }

    @Test
    void aLogThatFallsBehindReplaysOnlyTheCommitsAfterTheSharedState() {
        String location = dir.resolve("t").toString();
        FileCommitLog committer = tableWithOneCommit(location);
        CountingFileIO io = new CountingFileIO();
        FileCommitLog reader = FileCommitLog.load(io, location);
        committer.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 1))));
        committer.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 0))));

        // Commit 4 is shared in this JVM; commit 5 comes from another process, which shares
        // nothing here. The reader, at commit 1, starts from the shared commit 4 and reads commit
        // 5 alone from its file.
        FileCommitLog other =
                FileCommitLog.loadUnshared(new LocalFileIO(), location, Clock.systemUTC());
        committer.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 1))));
        other.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 1))));
        assertThat(committer.current().commitId()).isEqualTo(4);
        io.reset();
        TableState refreshed = reader.refresh();
        assertThat(refreshed.commitId()).isEqualTo(5);
        assertThat(io.readsUnder("commits")).isEqualTo(1);
        assertThat(refreshed).isEqualTo(readFromFiles(location, 5));
        // What commit 5 left alone is the shared state's own: group 0's list of files.
        FileGroupId group0 = TestDataFiles.log("d", 0).fileGroup();
        assertThat(refreshed.files(group0)).isSameAs(committer.current().files(group0));
    }

    @Test
    void aTableCreatedAgainAtTheSameLocationIsAnotherTable() throws Exception {
        // The same first schema version, to the millisecond: only the creation tells them apart.
        String location = dir.resolve("t").toString();
        FileCommitLog first = tableWithOneCommit(location);
        first.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 1))));
        new LocalFileIO().deleteRecursively(location);

        FileCommitLog second = tableWithOneCommit(location);
        FileCommitLog reader = FileCommitLog.load(new LocalFileIO(), location);
        second.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 2))));

        TableState refreshed = reader.refresh();
        assertThat(refreshed).isNotSameAs(first.current());
        assertThat(refreshed).isSameAs(second.current());
        assertThat(refreshed.files()).extracting(DataFile::bucket).containsExactly(0, 2);
    }

    /** A table of the test schema, created at {@code location}, with one log committed. */
    private static FileCommitLog tableWithOneCommit(String location) {
        FileCommitLog log =
                FileCommitLog.create(new LocalFileIO(), location, TestDataFiles.metadata(Map.of()));
        log.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 0))));
        return log;
    }

    /** The state of a commit as its files give it, to a loader that shares nothing. */
    private static TableState readFromFiles(String location, long commitId) {
        return new StateLoader(new MetadataFiles(new LocalFileIO(), location), () -> 0L, () -> 10)
                .load(commitId);
    }
}
