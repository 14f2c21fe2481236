package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.exceptions.CommitConflictException;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.WeirException;
import io.weir.options.TableOptions;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The one commit loop (Iceberg's SnapshotProducer idea): resolve the request against the latest
 * state, publish commit {@code N + 1} with an atomic create-if-absent, and on a lost race reload
 * and try again with a randomized backoff.
 */
final class CommitProducer {
    private static final Logger LOG = LoggerFactory.getLogger(CommitProducer.class);
    private static final long MIN_WAIT_MILLIS = 5;
    private static final long MAX_WAIT_MILLIS = 1000;
    static final String EXPIRED_PROPERTY = "expired";

    private final FileCommitLog log;
    private final CommitRequest request;
    private final CommitResolver resolver;
    private final CommitFilePublisher publisher;
    private final ExpiredBaseGuard expiredBase;

    CommitProducer(FileCommitLog log, CommitRequest request, Clock clock) {
        this.log = log;
        this.request = request;
        this.resolver = new CommitResolver(log, request, clock);
        this.publisher = new CommitFilePublisher(log);
        this.expiredBase = new ExpiredBaseGuard(log);
    }

    CommitOutcome commit() {
        int maxRetries = log.metadata().options().commitMaxRetries();
        // Optimistic: the state this log knows is usually the latest (a job's committer made the
        // previous commit itself), and the conditional create of the next commit file is then the
        // probe for a newer commit, so no request goes to finding the latest first. Only the
        // latest state decides: whatever the known state rejects or loses is tried on it again.
        TableState base = log.lastKnown();
        boolean latest = base == null;
        if (latest) {
            base = log.refresh();
        }
        for (int lost = 0; ; ) {
            if (alreadyCommitted(base)) {
                WriterCheckpoint w = base.writers().get(request.writerId());
                LOG.info(
                        "Checkpoint {} of writer {} is committed already (commit {} holds {}) in"
                                + " table {}",
                        request.checkpointId(),
                        request.writerId(),
                        w.commitId(),
                        w.checkpointId(),
                        log.location());
                return new CommitOutcome(earlierCommit(w, base), base, true);
            }
            if (lost == 0 && request.verifyAddedFiles()) {
                resolver.checkAddedFilesExist();
            }
            Commit commit;
            try {
                commit = resolver.resolve(base);
            } catch (RuntimeException e) {
                if (latest) {
                    throw e;
                }
                base = log.refresh();
                latest = true;
                continue;
            }
            Commit landed = publisher.publish(commit);
            if (landed == commit && !latest && expiredBase.landedBelowExpiry(commit)) {
                landed = null;
            }
            if (landed != null) {
                TableState next = base.apply(landed);
                log.published(next);
                return new CommitOutcome(landed, next, false);
            }
            if (latest) {
                // A race with another writer, not a state we knew to be old.
                if (lost >= maxRetries) {
                    throw new CommitConflictException(
                            String.format(
                                    "Cannot commit %s to table %s: lost the race for the next"
                                            + " commit id %d times (last tried commit %d; %s ="
                                            + " %d)",
                                    request,
                                    log.location(),
                                    lost + 1,
                                    commit.id(),
                                    TableOptions.COMMIT_MAX_RETRIES.key(),
                                    maxRetries));
                }
                LOG.debug(
                        "Lost the race for commit {} of table {} (attempt {}); retrying",
                        commit.id(),
                        log.location(),
                        lost + 1);
                backoff(lost);
                lost++;
            }
            base = log.refresh();
            latest = true;
        }
    }

    /**
     * The commit that holds the writer's last checkpoint; if it has expired (a job restored from an
     * old checkpoint), a stand-in without files (see {@link CommitOutcome}).
     */
    private Commit earlierCommit(WriterCheckpoint w, TableState base) {
        try {
            return log.commit(w.commitId());
        } catch (SnapshotExpiredException e) {
            return new Commit(
                    w.commitId(),
                    0,
                    CommitKind.APPEND,
                    base.schemaId(),
                    request.writerId(),
                    w.checkpointId(),
                    List.of(),
                    List.of(),
                    Map.of(EXPIRED_PROPERTY, "true"));
        }
    }

    private boolean alreadyCommitted(TableState base) {
        return request.writerId() != null
                && request.checkpointId() >= 0
                && base.lastCheckpointId(request.writerId()) >= request.checkpointId();
    }

    private void backoff(int attempt) {
        long cap = Math.min(MAX_WAIT_MILLIS, MIN_WAIT_MILLIS << Math.min(attempt, 16));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WeirException(
                    "Cannot commit "
                            + request
                            + " to table "
                            + log.location()
                            + ": interrupted while waiting to retry; nothing was committed",
                    e);
        }
    }
}
