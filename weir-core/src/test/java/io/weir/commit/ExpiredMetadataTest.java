package io.weir.commit;

import io.weir.DataFile;
import io.weir.SnapshotLease;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileStatus;
import io.weir.io.LocalFileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.MetadataText;
import io.weir.testing.TestDataFiles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The metadata side of expiry: after {@link CommitLog#retainFrom} and the deletion of what it makes
 * unnecessary, loading and time travel read no commit or checkpoint before the earliest retained
 * commit, stay bounded, and report expired snapshots as such.
 */
class ExpiredMetadataTest {
    @TempDir Path dir;

    private final ManualClock clock = new ManualClock(10_000);

    private String location() {
        return dir.resolve("table").toString();
    }

    private FileCommitLog create(int interval, int commits) {
        FileCommitLog log =
                FileCommitLog.create(
                        new LocalFileIO(),
                        location(),
                        TestDataFiles.metadata(
                                Map.of("metadata.checkpoint-interval", String.valueOf(interval))),
                        clock);
        for (int i = 0; i < commits; i++) {
            clock.advance(1_000);
            log.commit(CommitRequest.append(List.of(TestDataFiles.log("d", i % 3))));
        }
        return log;
    }

    /** Expires before {@code commitId} and deletes the metadata that allows, as expiry does. */
    private static void expireBefore(CommitLog log, long commitId) throws Exception {
        log.retainFrom(commitId);
        for (String path : log.metadataFilesBefore(commitId)) {
            log.io().delete(path);
        }
    }

    /**
     * The LATEST hint is written after its commit lands, so it may lag behind a newer commit; if
     * expiry then deletes the hinted commit, a table object far behind must load the latest state,
     * not take the hint for proof of lost commits.
     */
    @Test
    void aLaggingHintWhoseCommitExpiredIsNotDamage() throws Exception {
        FileCommitLog log = create(10, 3);
        FileCommitLog behind = FileCommitLog.load(new LocalFileIO(), location(), clock);
        for (int i = 0; i < 12; i++) {
            clock.advance(1_000);
            log.commit(CommitRequest.append(List.of(TestDataFiles.log("e", i % 3))));
        }
        expireBefore(log, 15);
        Files.writeString(dir.resolve("table/_weir/LATEST"), "12\n"); // lagging, expired
        assertThat(behind.refresh()).isEqualTo(log.current());
        assertThat(FileCommitLog.load(new LocalFileIO(), location(), clock).current())
                .isEqualTo(log.current());
    }

    @Test
    void loadingAfterExpiryStartsAtOrAfterTheEarliestRetainedCommit() throws Exception {
        FileCommitLog log = create(10, 35);
        TableState latest = log.current();
        TableState at28 = log.state(28);
        long at27 = log.commit(27).timestampMillis();
        expireBefore(log, 27);
        assertThat(dir.resolve("table/_weir/checkpoints/00000000000000000027.json")).exists();
        assertThat(dir.resolve("table/_weir/expired.json")).exists();
        assertThat(log.commitFileIds()).containsExactlyElementsOf(range(27, 35));

        CountingFileIO io = new CountingFileIO();
        FileCommitLog loaded = FileCommitLog.load(io, location(), clock);
        assertThat(loaded.current()).isEqualTo(latest);
        assertThat(loaded.earliestRetainedCommit()).isEqualTo(27);
        assertThat(io.readsUnder("checkpoints")).isEqualTo(1);
        assertThat(io.readsUnder("commits")).isLessThanOrEqualTo(10);

        // Time travel just after the marker: from its checkpoint, not from checkpoint 20.
        io.reset();
        assertThat(loaded.state(28)).isEqualTo(at28);
        assertThat(io.reads())
                .contains(location() + "/_weir/checkpoints/00000000000000000027.json")
                .noneMatch(p -> p.endsWith("00000000000000000020.json"));
        assertThat(io.readsUnder("commits")).isEqualTo(1);

        assertThatThrownBy(() -> loaded.state(26))
                .isInstanceOf(SnapshotExpiredException.class)
                .hasMessageContaining("Cannot read commit 26")
                .hasMessageContaining("earliest retained commit is 27");
        assertThatThrownBy(() -> loaded.state(0)).isInstanceOf(SnapshotExpiredException.class);
        assertThatThrownBy(() -> loaded.commit(26)).isInstanceOf(SnapshotExpiredException.class);
        assertThat(loaded.commit(27).id()).isEqualTo(27);
        assertThat(loaded.commitIdAsOf(at27)).isEqualTo(27);
        assertThatThrownBy(() -> loaded.commitIdAsOf(at27 - 1))
                .isInstanceOf(SnapshotExpiredException.class)
                .hasMessageContaining("earliest retained commit 27 was made at " + at27);
        assertThatThrownBy(() -> loaded.state(36))
                .isInstanceOf(ValidationException.class)
                .isNotInstanceOf(SnapshotExpiredException.class);

        // The earliest retained commit never moves backwards, nor past the latest commit.
        loaded.retainFrom(20);
        assertThat(loaded.earliestRetainedCommit()).isEqualTo(27);
        assertThatThrownBy(() -> loaded.retainFrom(36)).isInstanceOf(ValidationException.class);
    }

    @Test
    void aStaleInstanceCatchesUpAfterTheCommitsItMissedExpired() throws Exception {
        FileCommitLog writer = create(50, 5);
        FileCommitLog stale = FileCommitLog.load(new LocalFileIO(), location(), clock);
        for (int i = 0; i < 15; i++) {
            writer.commit(CommitRequest.append(List.of(TestDataFiles.log("d", i % 3))));
        }
        expireBefore(writer, 15);
        assertThat(stale.current().commitId()).isEqualTo(5);
        assertThat(stale.refresh()).isEqualTo(writer.current());
        assertThat(stale.state(15)).isEqualTo(writer.state(15));
    }

    /**
     * A commit starts on the state its log knows, without reading the table's head: when that state
     * and the commit after it expired meanwhile, the next commit id is free again, and the commit
     * file it creates there must not count. It lands on the latest state instead, and the file
     * below the earliest retained commit is gone.
     */
    @Test
    void aCommitOnAStateThatExpiredLandsOnTheLatest() throws Exception {
        FileCommitLog writer = create(50, 5);
        FileCommitLog stale = FileCommitLog.load(new LocalFileIO(), location(), clock);
        for (int i = 0; i < 15; i++) {
            writer.commit(CommitRequest.append(List.of(TestDataFiles.log("d", i % 3))));
        }
        expireBefore(writer, 15);
        assertThat(dir.resolve("table/_weir/commits/00000000000000000006.json")).doesNotExist();

        DataFile added = TestDataFiles.log("d", 1);
        CommitOutcome outcome = stale.commit(CommitRequest.append(List.of(added)));

        assertThat(outcome.commit().id()).isEqualTo(21);
        assertThat(dir.resolve("table/_weir/commits/00000000000000000006.json")).doesNotExist();
        FileCommitLog reloaded = FileCommitLog.load(new LocalFileIO(), location(), clock);
        assertThat(reloaded.current().commitId()).isEqualTo(21);
        assertThat(reloaded.current()).isEqualTo(stale.current());
        assertThat(reloaded.current().isLive(added.path())).isTrue();
        assertThat(writer.refresh()).isEqualTo(reloaded.current());
    }

    /**
     * When the expiry marker cannot be read after such a commit, the base commit's file tells
     * instead (expiry deletes commit files oldest first): present, so the commit counts.
     */
    @Test
    void anUnreadableExpiryMarkerDefersToTheBaseCommitsFile() throws Exception {
        FileCommitLog log = create(50, 5);
        Files.writeString(dir.resolve("table/_weir/expired.json"), "{ not json");
        DataFile added = TestDataFiles.log("d", 1);

        CommitOutcome outcome = log.commit(CommitRequest.append(List.of(added)));

        assertThat(outcome.commit().id()).isEqualTo(6);
        assertThat(dir.resolve("table/_weir/commits/00000000000000000006.json")).exists();
        assertThat(outcome.state().isLive(added.path())).isTrue();
    }

    @Test
    void reCommittingACheckpointWhoseCommitExpiredIsStillANoOp() throws Exception {
        FileCommitLog log = create(50, 0);
        CommitRequest checkpoint7 =
                CommitRequest.builder(io.weir.CommitKind.APPEND)
                        .writer("job", 7)
                        .add(TestDataFiles.log("d", 0))
                        .build();
        assertThat(log.commit(checkpoint7).commit().id()).isEqualTo(1);
        for (int i = 0; i < 9; i++) {
            log.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 1))));
        }
        expireBefore(log, 8);

        // A job restored from checkpoint 7 commits it again: nothing happens.
        FileCommitLog restored = FileCommitLog.load(new LocalFileIO(), location(), clock);
        CommitOutcome again = restored.commit(checkpoint7);
        assertThat(again.alreadyCommitted()).isTrue();
        assertThat(again.commit().id()).isEqualTo(1);
        assertThat(again.commit().checkpointId()).isEqualTo(7);
        assertThat(again.commit().properties()).containsEntry("expired", "true");
        assertThat(restored.current().commitId()).isEqualTo(10);
    }

    @Test
    void aMissingCheckpointAtTheEarliestRetainedCommitIsReportedAsCorruption() throws Exception {
        FileCommitLog log = create(50, 12);
        expireBefore(log, 8);
        Files.delete(dir.resolve("table/_weir/checkpoints/00000000000000000008.json"));
        // The table loads (damaged); reading its latest state names the file.
        assertThatThrownBy(() -> FileCommitLog.load(new LocalFileIO(), location(), clock).current())
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("00000000000000000008.json")
                .hasMessageContaining("have expired");
    }

    @Test
    void onlyTemporaryFilesOfMetadataWritesAreAbandoned() throws Exception {
        FileCommitLog log = create(50, 2);
        Path weir = dir.resolve("table/_weir");
        for (String name :
                List.of(
                        "commits/.00000000000000000003.json.ab.tmp",
                        "checkpoints/.00000000000000000050.json.cd.tmp",
                        "consumers/.reader.json.ef.tmp",
                        ".LATEST.gh.tmp",
                        "schemas/.1.json.ij.tmp")) {
            Files.createDirectories(weir.resolve(name).getParent());
            Files.writeString(weir.resolve(name), "x");
        }
        List<FileStatus> abandoned = log.abandonedMetadataFiles(Long.MAX_VALUE);
        assertThat(abandoned)
                .extracting(s -> Path.of(s.path()).getFileName().toString())
                .containsExactlyInAnyOrder(
                        ".00000000000000000003.json.ab.tmp",
                        ".00000000000000000050.json.cd.tmp",
                        ".reader.json.ef.tmp",
                        ".LATEST.gh.tmp");
        assertThat(log.abandonedMetadataFiles(0)).isEmpty();
    }

    @Test
    void markerAndLeaseFilesRoundTripAndRejectDamage() {
        String marker = ExpiryMarkerParser.toJson(42, 1_000);
        assertThat(marker).contains("\"earliest-retained-commit\" : 42");
        assertThat(ExpiryMarkerParser.fromJson("m", marker)).isEqualTo(42);
        assertThatThrownBy(() -> ExpiryMarkerParser.fromJson("m", "{\"format-version\":1}"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("earliest-retained-commit");
        assertThatThrownBy(
                        () ->
                                ExpiryMarkerParser.fromJson(
                                        "m",
                                        "{\"format-version\":1,\"earliest-retained-commit\":0}"))
                .isInstanceOf(CorruptFileException.class);

        SnapshotLease lease = new SnapshotLease("flink-source_1.a", 7, 123_456);
        String json = MetadataText.withoutChecksum(LeaseParser.toJson(lease));
        assertThat(LeaseParser.fromJson("l", json)).isEqualTo(lease);
        assertThatThrownBy(() -> LeaseParser.fromJson("l", json.replace("7,", "-7,")))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("l");
        assertThatThrownBy(
                        () ->
                                LeaseParser.fromJson(
                                        "l",
                                        json.replace(
                                                "\"format-version\" : 1",
                                                "\"format-version\" : 2")))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("format-version");
    }

    @Test
    void aRefreshThatAnExpiryOvertakesLoadsTheNewerLatestCommit() throws Exception {
        FileCommitLog writer = create(4, 5);
        ExpiringOnRead io = new ExpiringOnRead(writer);
        // A reader in another process: it reads the writer's commits from their files.
        FileCommitLog reader = FileCommitLog.loadUnshared(io, location(), clock);
        assertThat(reader.current().commitId()).isEqualTo(5);
        for (int i = 0; i < 3; i++) {
            writer.commit(CommitRequest.append(List.of(TestDataFiles.log("e", i))));
        }

        // The reader finds commit 8 the latest; while it reads commit 6, the writer commits 9 and
        // 10 and expires everything before 10.
        io.armAt("00000000000000000006.json");
        assertThat(reader.refresh()).isEqualTo(writer.current());
        assertThat(reader.current().commitId()).isEqualTo(10);
        assertThat(io.fired).isTrue();
    }

    @Test
    void aLoadThatAnExpiryOvertakesLoadsTheNewerLatestCommit() throws Exception {
        FileCommitLog writer = create(4, 7);
        ExpiringOnRead io = new ExpiringOnRead(writer);
        // Loading commit 7 reads checkpoint 4, then commits 5 to 7.
        io.armAt("00000000000000000005.json");
        FileCommitLog reader = FileCommitLog.load(io, location(), clock);
        assertThat(io.fired).isTrue();
        assertThat(reader.current()).isEqualTo(writer.current());
        assertThat(reader.current().commitId()).isEqualTo(9);
    }

    /**
     * Reading a commit file whose name ends as armed first makes the writer commit twice and expire
     * every commit before its new latest one, once.
     */
    private final class ExpiringOnRead extends io.weir.testing.ForwardingFileIO {
        private final FileCommitLog writer;
        private String armed;
        boolean fired;

        ExpiringOnRead(FileCommitLog writer) {
            this.writer = writer;
        }

        void armAt(String fileName) {
            armed = "/commits/" + fileName;
        }

        @Override
        public byte[] readAllBytes(String path) throws java.io.IOException {
            if (armed != null && path.endsWith(armed)) {
                armed = null;
                fired = true;
                try {
                    for (int i = 0; i < 2; i++) {
                        clock.advance(1_000);
                        writer.commit(CommitRequest.append(List.of(TestDataFiles.log("x", i))));
                    }
                    expireBefore(writer, writer.current().commitId());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            return super.readAllBytes(path);
        }
    }

    private static List<Long> range(long from, long to) {
        return java.util.stream.LongStream.rangeClosed(from, to).boxed().toList();
    }
}
