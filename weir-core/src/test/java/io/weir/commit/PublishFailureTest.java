package io.weir.commit;

import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.exceptions.CommitConflictException;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.io.LocalFileIO;
import io.weir.testing.ForwardingFileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.TestDataFiles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a commit reports when publishing its file fails or loses a race. */
class PublishFailureTest {
    @TempDir Path dir;

    /** Fails the next commit-file write, before or after it happens. */
    private static final class FlakyFileIO extends ForwardingFileIO {
        volatile boolean failBeforeWrite;
        volatile boolean failAfterWrite;
        volatile Runnable beforeWrite;

        @Override
        public boolean writeIfAbsent(String path, byte[] content) throws IOException {
            if (!path.contains("/commits/")) {
                return super.writeIfAbsent(path, content);
            }
            if (beforeWrite != null) {
                Runnable r = beforeWrite;
                beforeWrite = null;
                r.run();
            }
            if (failBeforeWrite) {
                failBeforeWrite = false;
                throw new IOException("connection reset");
            }
            boolean written = super.writeIfAbsent(path, content);
            if (failAfterWrite) {
                failAfterWrite = false;
                throw new IOException("reply lost");
            }
            return written;
        }
    }

    private final FlakyFileIO io = new FlakyFileIO();

    private FileCommitLog create(Map<String, String> options) {
        return FileCommitLog.create(
                io, dir.resolve("table").toString(), TestDataFiles.metadata(options));
    }

    @Test
    void aLostReplyIsASuccessIfTheFileHoldsOurCommit() {
        FileCommitLog log = create(Map.of());
        io.failAfterWrite = true;
        DataFile file = TestDataFiles.log("d", 0);
        CommitOutcome result = log.commit(CommitRequest.append(List.of(file)));
        assertThat(result.alreadyCommitted()).isFalse();
        assertThat(result.commit().id()).isEqualTo(1);
        assertThat(FileCommitLog.load(io, log.location()).current().isLive(file.path())).isTrue();
    }

    @Test
    void aFailedWriteWithoutAFileIsUnknown() {
        FileCommitLog log = create(Map.of());
        io.failBeforeWrite = true;
        assertThatThrownBy(
                        () -> log.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 0)))))
                .isInstanceOf(CommitStateUnknownException.class)
                .hasMessageContaining("Cannot tell whether commit 1 of table " + log.location())
                .hasMessageContaining("00000000000000000001.json")
                .hasRootCauseMessage("connection reset");
    }

    @Test
    void aFailedWriteWhereAnotherCommitWonIsRetried() {
        FileCommitLog log = create(Map.of());
        FileCommitLog other = FileCommitLog.load(new LocalFileIO(), log.location());
        DataFile theirs = TestDataFiles.log("d", 0);
        io.beforeWrite = () -> other.commit(CommitRequest.append(List.of(theirs)));
        io.failAfterWrite = true;
        DataFile mine = TestDataFiles.log("d", 0);
        CommitOutcome result = log.commit(CommitRequest.append(List.of(mine)));
        assertThat(result.commit().id()).isEqualTo(2);
        assertThat(result.state().file(theirs.path()).sequence()).isEqualTo(1);
        assertThat(result.state().file(mine.path()).sequence()).isEqualTo(2);
    }

    @Test
    void aLostReplyOfTheSameWriterCheckpointIsASuccess() throws Exception {
        FileCommitLog log = create(Map.of());
        String path = log.location() + "/_weir/commits/00000000000000000001.json";
        // An earlier attempt of this writer checkpoint landed (with another timestamp) and the
        // reply was lost; this attempt fails to write and must recognise it.
        CommitRequest request =
                CommitRequest.builder(CommitKind.APPEND)
                        .writer("job", 3)
                        .add(TestDataFiles.log("d", 0))
                        .build();
        io.beforeWrite =
                () -> {
                    try {
                        String earlier =
                                CommitParser.toJson(
                                        new CommitResolver(log, request, new ManualClock(1))
                                                .resolve(log.current()));
                        Files.createDirectories(Path.of(path).getParent());
                        Files.writeString(Path.of(path), earlier, StandardCharsets.UTF_8);
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                };
        io.failBeforeWrite = true;
        CommitOutcome result = log.commit(request);
        assertThat(result.commit().id()).isEqualTo(1);
        assertThat(result.commit().timestampMillis()).isEqualTo(1_000); // the earlier attempt's
        assertThat(result.alreadyCommitted()).isFalse();
    }

    @Test
    void runningOutOfRetriesIsAConflict() {
        FileCommitLog log = create(Map.of("commit.max-retries", "2"));
        FileCommitLog other = FileCommitLog.load(new LocalFileIO(), log.location());
        // Before each of our attempts, another instance takes the id.
        io.beforeWrite =
                new Runnable() {
                    @Override
                    public void run() {
                        other.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 0))));
                        io.beforeWrite = this;
                    }
                };
        assertThatThrownBy(
                        () -> log.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 1)))))
                .isInstanceOf(CommitConflictException.class)
                .hasMessageContaining("to table " + log.location())
                .hasMessageContaining("lost the race for the next commit id 3 times")
                .hasMessageContaining("commit.max-retries = 2");
        io.beforeWrite = null;
        // The first attempt, on the state the log knew, lost to a commit that it had not read;
        // then 1 + 2 attempts on the latest state, each lost to a new race.
        assertThat(other.refresh().commitId()).isEqualTo(4);
    }
}
