package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.exceptions.ValidationException;
import io.weir.io.LocalFileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.TestDataFiles;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Loading, refreshing and time travel: by id, by timestamp, from checkpoints and hints. */
class TableLoadingTest {
    @TempDir Path dir;

    private final LocalFileIO io = new LocalFileIO();
    private final ManualClock clock = new ManualClock(10_000);
    private String location;

    @BeforeEach
    void setUp() {
        location = dir.resolve("table").toString();
    }

    private FileCommitLog create(Map<String, String> options) {
        return FileCommitLog.create(io, location, TestDataFiles.metadata(options), clock);
    }

    private FileCommitLog load() {
        return FileCommitLog.load(io, location, clock);
    }

    @Test
    void timeTravelsByIdAndTimestamp() {
        FileCommitLog log = create(Map.of("metadata.checkpoint-interval", "3"));
        List<TableState> states = new ArrayList<>();
        states.add(log.current());
        long[] clockAt = {10_000, 10_000, 10_005, 10_003, 10_020, 10_021, 10_040};
        for (long t : clockAt) {
            clock.set(t);
            states.add(
                    log.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 0)))).state());
        }
        // The clock went back at commit 4: its timestamp does not.
        assertThat(states)
                .extracting(TableState::timestampMillis)
                .containsExactly(
                        1_000L, 10_000L, 10_000L, 10_005L, 10_005L, 10_020L, 10_021L, 10_040L);

        FileCommitLog reader = load();
        for (int id = 0; id < states.size(); id++) {
            assertThat(reader.state(id)).isEqualTo(states.get(id));
        }
        assertThat(reader.commit(4).timestampMillis()).isEqualTo(10_005);
        assertThat(reader.commitIdAsOf(1_000)).isZero();
        assertThat(reader.commitIdAsOf(9_999)).isZero();
        assertThat(reader.commitIdAsOf(10_000)).isEqualTo(2);
        assertThat(reader.commitIdAsOf(10_004)).isEqualTo(2);
        assertThat(reader.commitIdAsOf(10_005)).isEqualTo(4);
        assertThat(reader.commitIdAsOf(10_030)).isEqualTo(6);
        assertThat(reader.commitIdAsOf(Long.MAX_VALUE)).isEqualTo(7);
        assertThatThrownBy(() -> reader.commitIdAsOf(999))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining(location)
                .hasMessageContaining("created at 1000");
        assertThatThrownBy(() -> reader.state(8))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot find commit 8 of table "
                                + location
                                + ": valid commit ids are 0 to 7");
        assertThatThrownBy(() -> reader.state(-1))
                .hasMessageContaining("valid commit ids are 0 to 7");
        assertThatThrownBy(() -> reader.commit(0)).hasMessageContaining("commit ids start at 1");
    }

    @Test
    void checkpointPlusReplayEqualsPureReplay() throws Exception {
        FileCommitLog log = create(Map.of("metadata.checkpoint-interval", "5"));
        Random random = new Random(7);
        for (int i = 0; i < 23; i++) {
            List<DataFile> group = log.current().files(new FileGroupId(Partition.of("d"), 0));
            if (i % 4 == 3) {
                long seq = group.stream().mapToLong(DataFile::sequence).max().orElseThrow();
                log.commit(
                        CommitRequest.compact(
                                group.stream().map(DataFile::path).toList(),
                                List.of(TestDataFiles.base("d", 0, seq))));
            } else {
                log.commit(
                        CommitRequest.builder(CommitKind.APPEND)
                                .writer("w" + random.nextInt(2), i)
                                .add(TestDataFiles.log("d", 0))
                                .add(TestDataFiles.log("e", random.nextInt(3)))
                                .build());
            }
        }
        Path checkpoints = dir.resolve("table/_weir/checkpoints");
        try (var files = Files.list(checkpoints)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted())
                    .containsExactly(
                            "00000000000000000005.json",
                            "00000000000000000010.json",
                            "00000000000000000015.json",
                            "00000000000000000020.json");
        }

        TableState.Builder pure = TableState.empty(0, 1_000).toBuilder();
        for (long id = 1; id <= 23; id++) {
            pure.apply(log.commit(id));
        }
        TableState expected = pure.build();
        assertThat(load().current()).isEqualTo(expected).isEqualTo(log.current());

        // Without the checkpoint it would use, the loader finds an older one.
        Files.delete(checkpoints.resolve("00000000000000000020.json"));
        assertThat(load().current()).isEqualTo(expected);
        try (var files = Files.list(checkpoints)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        assertThat(load().current()).isEqualTo(expected);
    }

    @Test
    void theLatestHintMayBeStaleOrMissing() throws Exception {
        FileCommitLog log = create(Map.of());
        for (int i = 0; i < 5; i++) {
            log.commit(CommitRequest.append(List.of(TestDataFiles.log("d", i))));
        }
        Path hint = dir.resolve("table/_weir/LATEST");
        assertThat(Files.readString(hint)).isEqualTo("5\n");

        Files.writeString(hint, "2\n");
        assertThat(load().current()).isEqualTo(log.current());
        Files.writeString(hint, "not a number");
        assertThat(load().current()).isEqualTo(log.current());
        Files.delete(hint);
        assertThat(load().current()).isEqualTo(log.current());
    }

    @Test
    void aHintBeyondTheCommitFilesProvesLostCommits() throws Exception {
        FileCommitLog log = create(Map.of());
        for (int i = 0; i < 5; i++) {
            log.commit(CommitRequest.append(List.of(TestDataFiles.log("d", i))));
        }
        // The hint is written only after its commit landed: commits 6..99 were lost.
        Files.writeString(dir.resolve("table/_weir/LATEST"), "99\n");
        FileCommitLog loaded = load();
        assertThatThrownBy(loaded::current)
                .isInstanceOf(io.weir.exceptions.CorruptFileException.class)
                .hasMessageContaining(
                        "commits/00000000000000000006.json: missing, but the LATEST" + " hint");
        assertThat(loaded.state(5)).isEqualTo(log.current());
    }

    @Test
    void refreshSeesOtherInstancesCommits() {
        FileCommitLog a = create(Map.of("metadata.checkpoint-interval", "2"));
        FileCommitLog b = load();
        for (int i = 0; i < 5; i++) {
            a.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 0))));
        }
        assertThat(b.current().commitId()).isZero();
        assertThat(b.refresh()).isEqualTo(a.current());
        assertThat(b.current()).isEqualTo(a.current());
        a.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 0))));
        assertThat(b.state(6)).isEqualTo(a.current());
        Commit sixth = b.commit(6);
        assertThat(sixth.added()).hasSize(1);
    }
}
