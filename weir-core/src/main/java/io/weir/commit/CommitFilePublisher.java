package io.weir.commit;

import io.weir.Commit;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.exceptions.CorruptFileException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Steps 6 and 7 of the commit protocol (docs/format.md §6.5): the conditional create of the commit
 * file, and, when its reply is lost, what the file found there says about the outcome.
 */
final class CommitFilePublisher {
    private static final Logger LOG = LoggerFactory.getLogger(CommitFilePublisher.class);

    private final FileCommitLog log;

    CommitFilePublisher(FileCommitLog log) {
        this.log = log;
    }

    /**
     * Publishes the commit file. Returns the commit that now holds our change (ours, or the same
     * writer checkpoint published by an earlier attempt whose reply was lost), or null if another
     * commit won the id.
     */
    Commit publish(Commit commit) {
        String path = log.files().paths().commit(commit.id());
        byte[] json = CommitParser.toJson(commit).getBytes(StandardCharsets.UTF_8);
        try {
            return log.files().io().writeIfAbsent(path, json) ? commit : null;
        } catch (IOException | UncheckedIOException e) {
            return afterPublishFailure(commit, path, json, e);
        }
    }

    /**
     * The write may or may not have happened. If the file exists, it tells: our bytes (or our
     * writer checkpoint) mean we landed; other content means we lost the id, and since the create
     * is atomic we can never land there later. Without the file we cannot tell.
     */
    private Commit afterPublishFailure(Commit commit, String path, byte[] json, Exception cause) {
        byte[] found;
        try {
            found = log.files().read(path);
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
            found = null;
        }
        if (found == null) {
            throw new CommitStateUnknownException(
                    String.format(
                            "Cannot tell whether commit %d of table %s landed: writing %s failed"
                                    + " (%s). Reload the table before retrying, and do not delete"
                                    + " the commit's files",
                            commit.id(), log.location(), path, cause),
                    cause);
        }
        if (Arrays.equals(found, json)) {
            return commit;
        }
        if (commit.writerId() != null && commit.checkpointId() >= 0) {
            try {
                Commit other =
                        CommitParser.fromJson(path, new String(found, StandardCharsets.UTF_8));
                if (Objects.equals(other.writerId(), commit.writerId())
                        && other.checkpointId() == commit.checkpointId()) {
                    return other;
                }
            } catch (CorruptFileException e) {
                cause.addSuppressed(e);
            }
        }
        LOG.info("Lost the race for {} after a write error: {}", path, cause.toString());
        return null;
    }
}
