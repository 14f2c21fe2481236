package io.weir.commit;

import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.exceptions.CommitConflictException;
import io.weir.exceptions.NoSuchTableException;
import io.weir.exceptions.TableAlreadyExistsException;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.TestDataFiles;
import io.weir.testing.TestStorage;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FileCommitLogTest {
    @TempDir Path dir;

    private final TestStorage storage = TestStorage.current();
    private final FileIO io = storage.io();
    private final ManualClock clock = new ManualClock(10_000);
    private String location;

    @BeforeEach
    void setUp() {
        location = storage.location(dir, "table");
    }

    private FileCommitLog create(Map<String, String> options) {
        return FileCommitLog.create(io, location, TestDataFiles.metadata(options), clock);
    }

    private FileCommitLog load() {
        return FileCommitLog.load(io, location, clock);
    }

    @Test
    void createsAnEmptyTableAndLoadsIt() throws IOException {
        FileCommitLog created = create(Map.of("bucket", "2"));
        assertThat(created.current().commitId()).isZero();
        assertThat(created.current().fileCount()).isZero();

        FileCommitLog loaded = load();
        assertThat(loaded.current()).isEqualTo(created.current());
        assertThat(loaded.metadata()).isEqualTo(TestDataFiles.metadata(Map.of("bucket", "2")));
        assertThat(loaded.state(0)).isEqualTo(created.current());
        assertThat(io.exists(location + "/_weir/schemas/0.json")).isTrue();
        assertThat(io.list(location + "/_weir/commits")).isEmpty();
    }

    @Test
    void createFailsIfTheTableExistsAndLoadFailsIfItDoesNot() {
        assertThatThrownBy(this::load)
                .isInstanceOf(NoSuchTableException.class)
                .hasMessageContaining(location)
                .hasMessageContaining("_weir/schemas/0.json");
        create(Map.of());
        assertThatThrownBy(() -> create(Map.of()))
                .isInstanceOf(TableAlreadyExistsException.class)
                .hasMessageContaining(location);
    }

    /** Random appends, compactions and overwrites; each state equals a model kept here. */
    @Test
    void sequentialCommitsMatchAModel() {
        FileCommitLog log = create(Map.of("metadata.checkpoint-interval", "7"));
        Map<String, DataFile> model = new HashMap<>();
        Map<Long, TableState> history = new HashMap<>();
        history.put(0L, log.current());
        Random random = new Random(42);
        long lastSequence = 0;
        for (long id = 1; id <= 60; id++) {
            int op = random.nextInt(10);
            String dt = "d" + random.nextInt(3);
            int bucket = random.nextInt(2);
            FileGroupId group = new FileGroupId(Partition.of(dt), bucket);
            CommitOutcome result;
            List<DataFile> groupFiles = log.current().files(group);
            if (op < 6 || groupFiles.isEmpty()) {
                List<DataFile> logs =
                        List.of(TestDataFiles.log(dt, bucket), TestDataFiles.log(dt, bucket));
                result = log.commit(CommitRequest.append(logs));
                for (int i = 0; i < logs.size(); i++) {
                    DataFile expected = logs.get(i).withSequence(++lastSequence);
                    assertThat(result.commit().added().get(i)).isEqualTo(expected);
                    model.put(expected.path(), expected);
                }
            } else if (op < 9) {
                long merged = groupFiles.stream().mapToLong(DataFile::sequence).max().orElseThrow();
                DataFile base = TestDataFiles.base(dt, bucket, merged);
                List<String> inputs = groupFiles.stream().map(DataFile::path).toList();
                result = log.commit(CommitRequest.compact(inputs, List.of(base)));
                inputs.forEach(model::remove);
                model.put(base.path(), base);
            } else {
                DataFile fresh = TestDataFiles.log(dt, bucket);
                result =
                        log.commit(
                                CommitRequest.builder(CommitKind.OVERWRITE)
                                        .overwritePartitions(List.of(Partition.of(dt)))
                                        .add(fresh)
                                        .build());
                model.values().removeIf(f -> f.partition().equals(Partition.of(dt)));
                DataFile expected = fresh.withSequence(++lastSequence);
                model.put(expected.path(), expected);
            }
            clock.advance(random.nextInt(3));
            TableState state = result.state();
            assertThat(result.alreadyCommitted()).isFalse();
            assertThat(result.commit().id()).isEqualTo(id);
            assertThat(state.commitId()).isEqualTo(id);
            assertThat(state).isEqualTo(log.current());
            assertThat(byPath(state)).isEqualTo(model);
            assertThat(state.lastSequence()).isEqualTo(lastSequence);
            history.put(id, state);
        }

        FileCommitLog reloaded = load();
        assertThat(reloaded.current()).isEqualTo(log.current());
        for (long id = 0; id <= 60; id++) {
            assertThat(reloaded.state(id)).as("state %s", id).isEqualTo(history.get(id));
        }
    }

    private static Map<String, DataFile> byPath(TableState state) {
        return state.files().stream().collect(Collectors.toMap(DataFile::path, f -> f));
    }

    @Test
    void recommitOfAWriterCheckpointLandsNothing() {
        FileCommitLog log = create(Map.of());
        DataFile first = TestDataFiles.log("d", 0);
        CommitOutcome landed =
                log.commit(
                        CommitRequest.builder(CommitKind.APPEND)
                                .writer("job", 5)
                                .add(first)
                                .build());
        assertThat(landed.alreadyCommitted()).isFalse();

        // After a failover a new instance re-commits the same checkpoint (with other files).
        FileCommitLog again = load();
        DataFile retry = TestDataFiles.log("d", 0);
        for (long checkpoint : new long[] {5, 4}) {
            CommitOutcome result =
                    again.commit(
                            CommitRequest.builder(CommitKind.APPEND)
                                    .writer("job", checkpoint)
                                    .add(retry)
                                    .build());
            assertThat(result.alreadyCommitted()).isTrue();
            assertThat(result.commit()).isEqualTo(landed.commit());
            assertThat(result.state().commitId()).isEqualTo(1);
            assertThat(result.state().isLive(retry.path())).isFalse();
        }
        assertThat(load().current().commitId()).isEqualTo(1);

        // Another writer's checkpoint 5, and this writer's checkpoint 6, land.
        assertThat(
                        again.commit(
                                        CommitRequest.builder(CommitKind.APPEND)
                                                .writer("other", 5)
                                                .add(retry)
                                                .build())
                                .alreadyCommitted())
                .isFalse();
        CommitOutcome next =
                again.commit(
                        CommitRequest.builder(CommitKind.APPEND)
                                .writer("job", 6)
                                .add(TestDataFiles.log("d", 0))
                                .build());
        assertThat(next.commit().id()).isEqualTo(3);
        assertThat(next.state().writers())
                .containsEntry("job", new WriterCheckpoint(6, 3))
                .containsEntry("other", new WriterCheckpoint(5, 2));
    }

    @Test
    void twoCompactionsOfTheSameFilesConflict() throws IOException {
        FileCommitLog log = create(Map.of());
        DataFile a = TestDataFiles.log("d", 0);
        DataFile b = TestDataFiles.log("d", 0);
        log.commit(CommitRequest.append(List.of(a, b)));
        FileCommitLog other = load();

        DataFile base1 = TestDataFiles.base("d", 0, 2);
        DataFile base2 = TestDataFiles.base("d", 0, 2);
        log.commit(CommitRequest.compact(List.of(a.path(), b.path()), List.of(base1)));
        assertThatThrownBy(
                        () ->
                                other.commit(
                                        CommitRequest.compact(
                                                List.of(a.path(), b.path()), List.of(base2))))
                .isInstanceOf(CommitConflictException.class)
                .hasMessageContaining(location)
                .hasMessageContaining("file " + a.path() + " is not live as of commit 2");

        TableState state = load().current();
        assertThat(state.commitId()).isEqualTo(2);
        assertThat(state.files()).containsExactly(base1);
        assertThat(io.exists(location + "/_weir/commits/00000000000000000003.json")).isFalse();
    }

    @Test
    void compactionRacingWithAnAppendKeepsTheAppendedLog() {
        FileCommitLog writer = create(Map.of());
        DataFile a = TestDataFiles.log("d", 0);
        DataFile b = TestDataFiles.log("d", 0);
        writer.commit(CommitRequest.append(List.of(a, b)));

        // The compactor plans from commit 1, then an append lands before it commits.
        FileCommitLog compactor = load();
        List<DataFile> inputs = compactor.current().files(new FileGroupId(Partition.of("d"), 0));
        DataFile c = TestDataFiles.log("d", 0);
        writer.commit(CommitRequest.append(List.of(c)));
        DataFile base = TestDataFiles.base("d", 0, 2);
        CommitOutcome compacted =
                compactor.commit(
                        CommitRequest.compact(
                                inputs.stream().map(DataFile::path).toList(), List.of(base)));

        assertThat(compacted.commit().id()).isEqualTo(3);
        List<DataFile> group = load().current().files(new FileGroupId(Partition.of("d"), 0));
        assertThat(group).extracting(DataFile::path).containsExactly(base.path(), c.path());
        assertThat(group.get(1).sequence()).isEqualTo(3).isGreaterThan(group.get(0).sequence());
    }

    @Test
    void overwriteIsResolvedAgainstTheLatestState() {
        FileCommitLog log = create(Map.of());
        log.commit(
                CommitRequest.append(
                        List.of(TestDataFiles.log("d1", 0), TestDataFiles.log("d2", 0))));
        FileCommitLog concurrent = load();
        DataFile late = TestDataFiles.log("d1", 1);
        concurrent.commit(CommitRequest.append(List.of(late)));

        DataFile replacement = TestDataFiles.log("d1", 0);
        CommitOutcome result =
                log.commit(
                        CommitRequest.builder(CommitKind.OVERWRITE)
                                .overwritePartitions(List.of(Partition.of("d1")))
                                .add(replacement)
                                .build());
        assertThat(result.commit().removed()).hasSize(2).contains(late.path());
        assertThat(result.state().files(java.util.Set.of(Partition.of("d1"))))
                .extracting(DataFile::path)
                .containsExactly(replacement.path());

        CommitOutcome all =
                log.commit(CommitRequest.builder(CommitKind.OVERWRITE).overwriteAll().build());
        assertThat(all.state().fileCount()).isZero();
    }

    @Test
    void rejectsInvalidRequests() {
        FileCommitLog log = create(Map.of());
        DataFile a = TestDataFiles.log("d", 0);
        log.commit(CommitRequest.append(List.of(a)));

        assertThatThrownBy(() -> log.commit(CommitRequest.append(List.of(a))))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("file " + a.path() + " is live already");
        assertThatThrownBy(
                        () ->
                                log.commit(
                                        CommitRequest.compact(
                                                List.of(a.path()),
                                                List.of(TestDataFiles.base("d", 0, 2)))))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("greater than the table's last sequence 1");
        assertThatThrownBy(
                        () ->
                                log.commit(
                                        CommitRequest.builder(CommitKind.APPEND)
                                                .add(TestDataFiles.log("d", 0))
                                                .schemaId(4)
                                                .build()))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Cannot find schema 4");
        assertThatThrownBy(() -> CommitRequest.append(List.of(a, a)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("added twice");
        assertThatThrownBy(() -> CommitRequest.builder(CommitKind.APPEND).overwriteAll().build())
                .isInstanceOf(ValidationException.class);
        assertThatThrownBy(
                        () ->
                                CommitRequest.builder(CommitKind.OVERWRITE)
                                        .overwritePartitions(List.of(Partition.of("x")))
                                        .add(TestDataFiles.log("d", 0))
                                        .build())
                .hasMessageContaining("outside the overwritten partitions");
        assertThat(log.refresh().commitId()).isEqualTo(1);
    }

    @Test
    void baseFilesWithoutASequenceGetANewOne() {
        FileCommitLog log = create(Map.of());
        DataFile bulk = TestDataFiles.base("d", 0, -1);
        CommitOutcome result = log.commit(CommitRequest.append(List.of(bulk)));
        assertThat(result.commit().added().get(0).sequence()).isEqualTo(1);
        assertThat(result.commit().added().get(0).kind()).isEqualTo(FileKind.BASE);
    }
}
