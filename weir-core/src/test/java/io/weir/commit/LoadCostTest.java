package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.io.LocalFileIO;
import io.weir.testing.CommitFileProbes;
import io.weir.testing.TestDataFiles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Loading never replays the whole history: reads are bounded by the checkpoint interval. */
class LoadCostTest {
    private static final int COMMITS = 10_000;
    private static final int INTERVAL = 50;
    private static final int GROUPS = 8;

    @TempDir Path dir;

    @Test
    void loadingATableWithTenThousandCommitsReadsOneCheckpointAndFewCommits() throws Exception {
        String location = dir.resolve("table").toString();
        FileCommitLog.create(
                new LocalFileIO(),
                location,
                TestDataFiles.metadata(
                        Map.of("metadata.checkpoint-interval", String.valueOf(INTERVAL))));
        // The history is written directly (fsync per commit would make this test take minutes on
        // a shared machine); the last commits go through the commit log, which writes the final
        // checkpoint and the hint itself.
        int direct = COMMITS - 10;
        writeHistory(direct);
        FileCommitLog log = FileCommitLog.load(new LocalFileIO(), location);
        assertThat(log.current().commitId()).isEqualTo(direct);
        for (int i = direct + 1; i <= COMMITS; i++) {
            log.commit(CommitRequest.append(List.of(TestDataFiles.log("d", i % GROUPS))));
        }
        TableState latest = log.current();
        assertThat(latest.commitId()).isEqualTo(COMMITS);
        assertThat(dir.resolve("table/_weir/checkpoints/00000000000000010000.json")).exists();

        CountingFileIO io = new CountingFileIO();
        FileCommitLog loaded = FileCommitLog.load(io, location);
        assertThat(loaded.current()).isEqualTo(latest);
        assertBounded(io);

        // Time travel to just before a checkpoint: its predecessor plus INTERVAL - 1 commits.
        io.reset();
        TableState old = loaded.state(COMMITS - 1);
        assertThat(old.commitId()).isEqualTo(COMMITS - 1);
        assertThat(io.readsUnder("commits")).isEqualTo(INTERVAL - 1);
        assertBounded(io);

        // A stale hint: loading probes forward, reading no more.
        Files.writeString(dir.resolve("table/_weir/LATEST"), (COMMITS - 7) + "\n");
        io.reset();
        assertThat(FileCommitLog.load(io, location).current()).isEqualTo(latest);
        assertBounded(io);
    }

    /** Commits 1..n: appends to GROUPS file groups, every 10th a compaction of one group. */
    private void writeHistory(int n) throws Exception {
        Path commits = Files.createDirectories(dir.resolve("table/_weir/commits"));
        Path checkpoints = Files.createDirectories(dir.resolve("table/_weir/checkpoints"));
        TableState state = TableState.empty(0, 1_000);
        long lastSequence = 0;
        for (int id = 1; id <= n; id++) {
            // Every 10th commit compacts the next group in turn, so the live set stays small.
            int bucket = id % 10 == 0 ? (id / 10) % GROUPS : id % GROUPS;
            Commit commit;
            if (id % 10 == 0 && !state.files(group(bucket)).isEmpty()) {
                List<DataFile> files = state.files(group(bucket));
                long merged = files.stream().mapToLong(DataFile::sequence).max().orElseThrow();
                commit =
                        commit(
                                id,
                                CommitKind.COMPACT,
                                List.of(TestDataFiles.base("d", bucket, merged)),
                                files.stream().map(DataFile::path).toList());
            } else {
                DataFile log = TestDataFiles.log("d", bucket).withSequence(++lastSequence);
                commit = commit(id, CommitKind.APPEND, List.of(log), List.of());
            }
            Files.writeString(commits.resolve(name(id)), CommitParser.toJson(commit));
            state = state.apply(commit); // copies the live set: fine, it is small

            if (id % INTERVAL == 0) {
                Files.writeString(checkpoints.resolve(name(id)), CheckpointParser.toJson(state));
            }
        }
    }

    /**
     * A reader refreshing after another writer's commit probes two commit files: the next one
     * (there, and also what the hint names) and the one after it (not there).
     */
    @Test
    void aRefreshAfterOneNewCommitProbesTwoCommitFiles() throws Exception {
        String location = dir.resolve("refreshed").toString();
        FileCommitLog writer =
                FileCommitLog.create(new LocalFileIO(), location, TestDataFiles.metadata(Map.of()));
        writer.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 0))));
        CommitFileProbes io = new CommitFileProbes();
        FileCommitLog reader = FileCommitLog.load(io, location);
        long known = reader.current().commitId();

        writer.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 1))));
        int before = io.probes();
        assertThat(reader.refresh().commitId()).isEqualTo(known + 1);
        assertThat(io.probes() - before).isEqualTo(2);
        assertThat(reader.current()).isEqualTo(writer.current());

        // Nothing new: the next one (not there) and the known one (there).
        before = io.probes();
        assertThat(reader.refresh().commitId()).isEqualTo(known + 1);
        assertThat(io.probes() - before).isEqualTo(2);
    }

    private static Commit commit(
            long id, CommitKind kind, List<DataFile> added, List<String> removed) {
        return new Commit(id, 2_000 + id, kind, 0, null, -1, added, removed, Map.of());
    }

    private static FileGroupId group(int bucket) {
        return new FileGroupId(Partition.of("d"), bucket);
    }

    private static String name(long id) {
        return String.format("%020d.json", id);
    }

    private static void assertBounded(CountingFileIO io) {
        List<String> reads = io.reads();
        long checkpoints = io.readsUnder("checkpoints");
        long commits = io.readsUnder("commits");
        long others = reads.size() - checkpoints - commits;
        assertThat(checkpoints).as("checkpoint reads %s", reads).isLessThanOrEqualTo(1);
        assertThat(commits).as("commit reads").isLessThanOrEqualTo(INTERVAL);
        assertThat(others).as("hint and schema reads %s", reads).isLessThanOrEqualTo(3);
    }
}
