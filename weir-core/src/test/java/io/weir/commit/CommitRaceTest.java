package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.exceptions.CommitConflictException;
import io.weir.io.FileIO;
import io.weir.testing.TestDataFiles;
import io.weir.testing.TestStorage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** Real races: threads, each with its own commit log instance, on one table. */
class CommitRaceTest {
    private static final int THREADS = 4;
    private static final int COMMITS_PER_THREAD = 25;

    @TempDir Path dir;

    private final TestStorage storage = TestStorage.current();
    private final FileIO io = storage.io();

    @Test
    void concurrentAppendsEachLandExactlyOnce() throws Exception {
        String location = storage.location(dir, "table");
        FileCommitLog.create(
                io,
                location,
                TestDataFiles.metadata(
                        Map.of(
                                "commit.max-retries",
                                "1000",
                                "metadata.checkpoint-interval",
                                "10")));
        CountDownLatch start = new CountDownLatch(1);
        List<Callable<List<DataFile>>> writers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            String writerId = "writer-" + t;
            writers.add(
                    () -> {
                        FileCommitLog log = FileCommitLog.load(io, location);
                        start.await();
                        List<DataFile> mine = new ArrayList<>();
                        for (int checkpoint = 1; checkpoint <= COMMITS_PER_THREAD; checkpoint++) {
                            DataFile file =
                                    TestDataFiles.log(
                                            "d" + ThreadLocalRandom.current().nextInt(2),
                                            ThreadLocalRandom.current().nextInt(2));
                            CommitRequest request =
                                    CommitRequest.builder(CommitKind.APPEND)
                                            .writer(writerId, checkpoint)
                                            .add(file)
                                            .build();
                            CommitOutcome result = log.commit(request);
                            assertThat(result.alreadyCommitted()).isFalse();
                            mine.add(file);
                            // A retry after a "failure" lands nothing.
                            assertThat(log.commit(request).alreadyCommitted()).isTrue();
                        }
                        return mine;
                    });
        }
        List<DataFile> committed = runAll(writers, start).stream().flatMap(List::stream).toList();

        FileCommitLog log = FileCommitLog.load(io, location);
        int total = THREADS * COMMITS_PER_THREAD;
        TableState state = log.current();
        assertThat(state.commitId()).isEqualTo(total);
        assertThat(state.fileCount()).isEqualTo(total);
        Set<String> seen = new HashSet<>();
        for (long id = 1; id <= total; id++) {
            Commit commit = log.commit(id); // dense: every id exists
            assertThat(commit.added()).hasSize(1);
            DataFile added = commit.added().get(0);
            assertThat(added.sequence()).as("sequence of commit %s", id).isEqualTo(id);
            assertThat(seen.add(added.path())).isTrue();
            assertThat(state.file(added.path())).isEqualTo(added);
        }
        assertThat(seen)
                .containsExactlyInAnyOrderElementsOf(
                        committed.stream().map(DataFile::path).toList());
        for (int t = 0; t < THREADS; t++) {
            assertThat(state.lastCheckpointId("writer-" + t)).isEqualTo(COMMITS_PER_THREAD);
        }
    }

    @Test
    void concurrentCompactionsOfTheSameFilesLandOnce() throws Exception {
        String location = storage.location(dir, "table");
        FileCommitLog setup =
                FileCommitLog.create(
                        io, location, TestDataFiles.metadata(Map.of("commit.max-retries", "100")));
        List<DataFile> logs = List.of(TestDataFiles.log("d", 0), TestDataFiles.log("d", 0));
        setup.commit(CommitRequest.append(logs));
        List<String> inputs = logs.stream().map(DataFile::path).toList();

        CountDownLatch start = new CountDownLatch(1);
        List<Callable<String>> compactors = new ArrayList<>();
        List<DataFile> appended = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            compactors.add(
                    () -> {
                        FileCommitLog log = FileCommitLog.load(io, location);
                        DataFile base = TestDataFiles.base("d", 0, 2);
                        start.await();
                        try {
                            log.commit(CommitRequest.compact(inputs, List.of(base)));
                            return base.path();
                        } catch (CommitConflictException e) {
                            return null;
                        }
                    });
        }
        // And appends to the same file group at the same time.
        for (int t = 0; t < 2; t++) {
            DataFile log = TestDataFiles.log("d", 0);
            appended.add(log);
            compactors.add(
                    () -> {
                        FileCommitLog l = FileCommitLog.load(io, location);
                        start.await();
                        l.commit(CommitRequest.append(List.of(log)));
                        return null;
                    });
        }
        List<String> winners = new ArrayList<>(runAll(compactors, start));
        winners.removeIf(w -> w == null);

        assertThat(winners).hasSize(1);
        TableState state = FileCommitLog.load(io, location).current();
        assertThat(state.commitId()).isEqualTo(4); // setup, one compaction, two appends
        List<DataFile> group = state.files(new FileGroupId(Partition.of("d"), 0));
        assertThat(group.get(0).path()).isEqualTo(winners.get(0));
        assertThat(group)
                .extracting(DataFile::path)
                .containsAll(appended.stream().map(DataFile::path).toList())
                .hasSize(3);
    }

    private static <T> List<T> runAll(List<Callable<T>> tasks, CountDownLatch start)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> task : tasks) {
                futures.add(pool.submit(task));
            }
            start.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
