package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.exceptions.CommitConflictException;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.exceptions.ValidationException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.weir.commit.FileCommitLog.REPAIRED_PROPERTY;
import static io.weir.commit.FileCommitLog.ROLLBACK_TO_PROPERTY;
import static io.weir.commit.FileCommitLog.ROLLED_BACK_FROM_PROPERTY;

/**
 * A ROLLBACK commit (docs/format.md §6.3). It is no turn of {@link CommitProducer}'s loop: it must
 * work on a damaged table, whose latest state the loop cannot read, so it takes an id above every
 * file there is and never retries.
 */
final class RollbackCommit {
    private static final Logger LOG = LoggerFactory.getLogger(RollbackCommit.class);

    private final MetadataFiles files;
    private final StateLoader loader;
    private final Clock clock;

    RollbackCommit(MetadataFiles files, StateLoader loader, Clock clock) {
        this.files = files;
        this.loader = loader;
        this.clock = clock;
    }

    /**
     * Restores the state as of {@code commitId} with a new commit; the caller records the outcome.
     *
     * @param latest the latest state, or null if the table is damaged
     * @param top the latest commit id, while damaged the latest that exists or is proven
     * @param readable the latest state that can be read, for the timestamp of a repair
     */
    CommitOutcome rollBack(long commitId, TableState latest, long top, TableState readable) {
        ValidationException.check(
                commitId >= 0 && commitId < top,
                "Cannot roll back table %s to commit %s: valid commits are 0 to %s, before the"
                        + " latest commit %s",
                files.location(),
                commitId,
                top - 1,
                top);
        long earliest = loader.earliestRetained();
        if (commitId < earliest) {
            throw loader.expired(commitId, earliest);
        }
        TableState target = loader.load(commitId);
        // Never reuse an id: a damaged commit file still exists, a missing one may have been read
        // by someone, and a checkpoint or hint may name it. The rollback takes the next free id.
        long id =
                Math.max(
                                top,
                                Math.max(
                                        files.maxListedId(
                                                files.paths().commitsDir(), Long.MAX_VALUE),
                                        files.maxListedId(
                                                files.paths().checkpointsDir(), Long.MAX_VALUE)))
                        + 1;
        long timestamp =
                Math.max(
                        clock.millis(),
                        Math.max(
                                target.timestampMillis(),
                                latest != null
                                        ? latest.timestampMillis()
                                        : readable.timestampMillis()));
        Map<String, String> properties = new TreeMap<>();
        properties.put(ROLLBACK_TO_PROPERTY, Long.toString(commitId));
        properties.put(ROLLED_BACK_FROM_PROPERTY, Long.toString(top));
        if (latest == null) {
            properties.put(REPAIRED_PROPERTY, "true");
        }
        Commit commit =
                new Commit(
                        id,
                        timestamp,
                        CommitKind.ROLLBACK,
                        target.schemaId(),
                        null,
                        -1,
                        List.of(),
                        List.of(),
                        properties,
                        commitId);
        String path = files.paths().commit(id);
        boolean created;
        try {
            created =
                    files.io()
                            .writeIfAbsent(
                                    path,
                                    CommitParser.toJson(commit).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new CommitStateUnknownException(
                    "Cannot tell whether the rollback of table "
                            + files.location()
                            + " to commit "
                            + commitId
                            + " landed: writing "
                            + path
                            + " failed; run 'weir doctor' to see",
                    e);
        }
        if (!created) {
            throw new CommitConflictException(
                    "Cannot roll back table "
                            + files.location()
                            + " to commit "
                            + commitId
                            + ": commit "
                            + id
                            + " was made meanwhile; check the table and run the rollback again");
        }
        TableState next = target.toBuilder().apply(commit).build();
        // The rollback's own checkpoint, whatever the interval: loading it never needs the
        // commits it abandoned (StateLoader reads it in place of the restored state).
        try {
            files.writeCheckpoint(next);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot write checkpoint {} of the rollback", files.paths().checkpoint(id), e);
        }
        LOG.info(
                "Rolled table {} back to commit {} with commit {} (the latest commit was {}{})",
                files.location(),
                commitId,
                id,
                top,
                latest == null ? ", damaged" : "");
        return new CommitOutcome(commit, next, false);
    }
}
