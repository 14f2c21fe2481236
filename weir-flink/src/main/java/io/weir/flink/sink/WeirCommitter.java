package io.weir.flink.sink;

import io.weir.CommitResult;
import io.weir.Partition;
import io.weir.Table;
import io.weir.Tables;
import io.weir.exceptions.CommitConflictException;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.exceptions.ValidationException;
import io.weir.exceptions.WeirException;
import io.weir.flink.sink.internal.CommitterMetrics;
import io.weir.io.FileIO;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.util.function.SerializableSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes one atomic Weir commit per committable, i.e. per checkpoint, in checkpoint order. Only
 * subtask 0 receives committables (the sink routes them there); the table is loaded on first use.
 *
 * <p>Flink hands the committer only committables that are part of a completed checkpoint, or that
 * it restored from one; a committable of an attempt that failed before its checkpoint completed is
 * never seen here, and its files stay orphans. After a restore Flink commits every restored
 * committable again: the commit carries (writer id, checkpoint id), Weir finds it already there and
 * changes nothing, and the request is marked already committed.
 *
 * <p>Failures: every failure fails the job, and none discards a committable (which would lose its
 * rows). The job then restores from its last checkpoint and commits the same committables again,
 * which is safe by the idempotency above:
 *
 * <ul>
 *   <li>{@link CommitStateUnknownException}: the commit may or may not have landed; the re-commit
 *       after the restore finds out.
 *   <li>{@link CommitConflictException}: Weir already retried the race for the next commit id
 *       ({@code commit.max-retries}, with backoff); persistent contention needs attention, and a
 *       failover retries later.
 *   <li>{@link ValidationException} (e.g. a file already live, a schema the table no longer has):
 *       retrying cannot help, so the job keeps failing loudly until someone looks.
 *   <li>Anything else (I/O errors reading the table) propagates as is.
 * </ul>
 */
final class WeirCommitter implements Committer<WeirCommittable> {
    private static final Logger LOG = LoggerFactory.getLogger(WeirCommitter.class);

    private final SerializableSupplier<FileIO> io;
    private final String location;
    private final CommitterMetrics metrics;
    private final WeirSinkHook hook;
    private Table table;

    WeirCommitter(
            SerializableSupplier<FileIO> io,
            String location,
            CommitterMetrics metrics,
            WeirSinkHook hook) {
        this.io = io;
        this.location = location;
        this.metrics = metrics;
        this.hook = hook;
    }

    @Override
    public void commit(Collection<CommitRequest<WeirCommittable>> requests) {
        List<CommitRequest<WeirCommittable>> ordered = new ArrayList<>(requests);
        ordered.sort(Comparator.comparingLong(r -> r.getCommittable().checkpointId()));
        for (CommitRequest<WeirCommittable> request : ordered) {
            commit(request);
        }
    }

    private void commit(CommitRequest<WeirCommittable> request) {
        WeirCommittable committable = request.getCommittable();
        if (hook != null) {
            hook.beforeCommit(committable);
        }
        long start = System.nanoTime();
        CommitResult result;
        try {
            result = apply(table(), committable);
        } catch (CommitStateUnknownException e) {
            fail(request, "it is unknown whether the commit landed", e);
            return;
        } catch (CommitConflictException e) {
            fail(request, "it lost the race for the next commit too often", e);
            return;
        } catch (ValidationException e) {
            fail(request, "the table rejects it", e);
            return;
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (result.alreadyCommitted()) {
            LOG.info(
                    "{} of table {} was committed before (commit {}); nothing to do",
                    committable,
                    location,
                    result.commit().id());
            request.signalAlreadyCommitted();
            metrics.updateHealth(table(), result.commit());
        } else {
            LOG.info(
                    "Committed {} to table {} as commit {} in {} ms",
                    committable,
                    location,
                    result.commit().id(),
                    millis);
            metrics.committed(committable, result.commit().id(), millis);
            metrics.updateHealth(table(), result.commit());
        }
        if (hook != null) {
            hook.afterCommit(committable, result.alreadyCommitted());
        }
    }

    private static CommitResult apply(Table table, WeirCommittable c) {
        return switch (c.kind()) {
            case APPEND ->
                    table.newAppend()
                            .identity(c.writerId(), c.checkpointId())
                            .addFiles(c.files())
                            .commit();
            case OVERWRITE_ALL ->
                    table.newOverwrite()
                            .overwriteAll()
                            .identity(c.writerId(), c.checkpointId())
                            .addFiles(c.files())
                            .commit();
            case OVERWRITE_PARTITIONS -> {
                var overwrite = table.newOverwrite().identity(c.writerId(), c.checkpointId());
                for (Partition p : c.overwritten()) {
                    overwrite.overwritePartition(p);
                }
                yield overwrite.addFiles(c.files()).commit();
            }
        };
    }

    /** Fails the job; {@code signalFailedWithUnknownReason} throws. */
    private void fail(CommitRequest<WeirCommittable> request, String why, WeirException cause) {
        String message =
                "Cannot commit "
                        + request.getCommittable()
                        + " to table "
                        + location
                        + ": "
                        + why
                        + ". Failing the job: it restores from its last checkpoint and commits"
                        + " again (idempotent by writer id and checkpoint id); nothing is dropped";
        LOG.error(message, cause);
        request.signalFailedWithUnknownReason(new WeirException(message, cause));
    }

    private Table table() {
        if (table == null) {
            table = Tables.load(io.get(), location);
        }
        return table;
    }

    @Override
    public void close() {}
}
