package io.weir.flink.source.internal;

import io.weir.Table;
import io.weir.Tables;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.flink.source.WeirEnumeratorState;
import io.weir.flink.source.WeirSplit;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Plans splits and hands them to readers on request, one at a time. A bounded read plans once; a
 * streaming read plans its start and then, every discovery interval, the changes of the commits
 * made since. Planning and lease writes run on the coordinator's worker thread; every state change
 * happens on the coordinator thread.
 *
 * <p><b>Lease.</b> Unless disabled, the enumerator holds the source's snapshot lease on the oldest
 * commit the source may still read or restart from ({@link ReadFloors}): taken before the first
 * planning (a start or restore on an expired snapshot fails, naming the earliest retained commit),
 * renewed every third of its duration and when a checkpoint completes, released when a bounded read
 * has finished. It is not released when the enumerator closes otherwise (failover, a cancelled
 * streaming job): it then ends by itself after its duration.
 */
public final class WeirSplitEnumerator implements SplitEnumerator<WeirSplit, WeirEnumeratorState> {
    private static final Logger LOG = LoggerFactory.getLogger(WeirSplitEnumerator.class);

    /**
     * How often a start at the latest commit tries again when that commit expires before its lease
     * is written; each try needs another commit and expiry in between to fail.
     */
    private static final int START_LEASE_ATTEMPTS = 10;

    private final SplitEnumeratorContext<WeirSplit> context;
    private final ReadSpec spec;
    private final SplitQueues pending;
    private final Set<Integer> awaiting = new LinkedHashSet<>();
    private final Set<Integer> finishedReaders = new HashSet<>();
    private final ReadFloors floors;
    private final SourceLease lease;
    private final boolean restored;
    private Table table;
    private SplitPlanner planner;

    /** Written on the coordinator thread, read by planning to know where to continue. */
    private volatile long position;

    public WeirSplitEnumerator(
            SplitEnumeratorContext<WeirSplit> context, ReadSpec spec, WeirEnumeratorState state) {
        this.context = context;
        this.spec = spec;
        this.position = state.position();
        this.restored = state.started();
        this.pending = new SplitQueues(!spec.bounded(), context.currentParallelism());
        pending.addAll(state.pending());
        // FLIP-33's unassignedSplits: splits planned and not yet handed to a reader.
        context.metricGroup().setUnassignedSplitsGauge(() -> (long) pending.size());
        this.floors = new ReadFloors(state.started() ? restoredFloor(state) : ReadFloors.NONE);
        this.lease =
                spec.leases()
                        ? new SourceLease(
                                consumerId(spec, state), Duration.ofMillis(spec.leaseTtlMillis()))
                        : null;
        if (lease != null && restored) {
            lease.target(leaseFloor());
        }
    }

    @Override
    public void start() {
        if (spec.bounded()) {
            if (position < 0) {
                context.callAsync(this::plan, this::onPlanned);
            } else if (lease != null) {
                context.callAsync(this::plan, this::onPlanned); // only takes the lease
            }
        } else {
            context.callAsync(
                    this::plan, this::onPlanned, 0, Math.max(1, spec.discoveryIntervalMillis()));
        }
        if (lease != null) {
            long period = Math.max(1, spec.leaseTtlMillis() / 3);
            context.callAsync(this::renewLease, this::onLeaseRenewed, period, period);
        }
    }

    /** A plan and the position it continued from, to recognise a stale result. */
    private record Planned(long from, SplitPlanner.Plan plan) {}

    /** Runs on the worker thread. */
    private Planned plan() {
        long from = position;
        if (planner == null) {
            table = Tables.load(spec.io().get(), spec.location());
            planner = new SplitPlanner(table, spec);
            if (lease != null) {
                takeLease(from);
            }
        }
        if (spec.bounded() && from >= 0) {
            return new Planned(from, new SplitPlanner.Plan(from, List.of()));
        }
        try {
            return new Planned(from, from < 0 ? planner.start() : planner.discover(from));
        } catch (SnapshotExpiredException e) {
            throw new FlinkRuntimeException(e.getMessage(), e);
        }
    }

    /** Worker thread, before the first planning: a restore leases its floor, a start its start. */
    private void takeLease(long from) {
        try {
            if (from >= 0) {
                long commit = lease.target();
                if (commit != ReadFloors.NONE) {
                    lease.acquire(table, commit, true);
                }
                return;
            }
            long commit = planner.startCommit();
            for (int attempt = 1; ; attempt++) {
                try {
                    lease.acquire(table, commit, false);
                    return;
                } catch (SnapshotExpiredException e) {
                    // A start at the latest commit raced a commit and an expiry: that commit was
                    // the latest when resolved, and expired before the lease was written.
                    if (!planner.startsAtLatestCommit() || attempt == START_LEASE_ATTEMPTS) {
                        throw e;
                    }
                    long latest = planner.startCommit();
                    if (latest <= commit) {
                        throw e;
                    }
                    LOG.info(
                            "Weir source {}: commit {} of table {} expired before it was leased;"
                                    + " starting at commit {}",
                            lease.consumerId(),
                            commit,
                            spec.location(),
                            latest);
                    commit = latest;
                }
            }
        } catch (SnapshotExpiredException e) {
            throw new FlinkRuntimeException(e.getMessage(), e);
        }
    }

    private void onPlanned(Planned planned, @Nullable Throwable error) {
        if (error != null) {
            if (error instanceof FlinkRuntimeException f
                    && f.getCause() instanceof SnapshotExpiredException) {
                throw f;
            }
            throw new FlinkRuntimeException(
                    "Cannot plan the splits of Weir table " + spec.location(), error);
        }
        // A periodic run may start before the previous result was handled: it planned from an
        // old position, and its splits were already taken.
        if (planned.from() != position) {
            return;
        }
        SplitPlanner.Plan plan = planned.plan();
        if (!plan.splits().isEmpty()) {
            LOG.info(
                    "Weir source {}: planned {} splits up to commit {}",
                    spec.location(),
                    plan.splits().size(),
                    plan.position());
        }
        pending.addAll(plan.splits());
        position = plan.position();
        assignPending();
    }

    @Override
    public void handleSplitRequest(int subtask, @Nullable String requesterHostname) {
        awaiting.add(subtask);
        assignPending();
    }

    @Override
    public void handleSourceEvent(int subtask, SourceEvent event) {
        if (event instanceof ReaderHoldsEvent holds) {
            floors.reported(subtask, holds);
            updateLease();
        }
    }

    @Override
    public void addSplitsBack(List<WeirSplit> splits, int subtask) {
        LOG.info("Weir source: reader {} returned {} splits", subtask, splits.size());
        pending.addBack(splits);
        floors.readerReset(subtask);
        finishedReaders.remove(subtask);
        updateLease();
    }

    @Override
    public void addReader(int subtask) {
        // Readers ask for splits themselves; until a reader reports what it holds, it may hold
        // the splits of the checkpoint it restored from.
        floors.readerReset(subtask);
        updateLease();
    }

    @Override
    public WeirEnumeratorState snapshotState(long checkpointId) {
        long floor = currentFloor();
        floors.checkpoint(checkpointId, floor);
        return new WeirEnumeratorState(
                position, pending.all(), lease == null ? null : lease.consumerId(), floor);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        floors.checkpointComplete(checkpointId);
        if (lease != null) {
            updateLease();
            context.callAsync(this::renewLease, this::onLeaseRenewed);
        }
    }

    private void assignPending() {
        Iterator<Integer> it = awaiting.iterator();
        while (it.hasNext()) {
            int subtask = it.next();
            if (!context.registeredReaders().containsKey(subtask)) {
                it.remove(); // failed meanwhile; it asks again when it is back
                continue;
            }
            WeirSplit split = pending.poll(subtask);
            if (split != null) {
                floors.assigned(subtask, split);
                context.assignSplit(split, subtask);
                it.remove();
            } else if (spec.bounded() && position >= 0) {
                context.signalNoMoreSplits(subtask);
                finishedReaders.add(subtask);
                it.remove();
            }
        }
        updateLease();
    }

    /** The oldest commit needed now (the enumerator and its readers), or NONE. */
    private long currentFloor() {
        if (position < 0) {
            return floors.completed();
        }
        long floor = spec.bounded() ? ReadFloors.NONE : position;
        for (WeirSplit split : pending.all()) {
            floor = Math.min(floor, ReadFloors.of(split));
        }
        return Math.min(floor, floors.readers());
    }

    /** What the lease must cover: now, and a restore from the last completed checkpoint. */
    private long leaseFloor() {
        return Math.min(currentFloor(), floors.completed());
    }

    private void updateLease() {
        if (lease == null || position < 0) {
            return;
        }
        boolean finished =
                spec.bounded()
                        && pending.isEmpty()
                        && finishedReaders.size() >= context.currentParallelism()
                        && floors.readers() == ReadFloors.NONE;
        long target = finished ? ReadFloors.NONE : leaseFloor();
        boolean release = finished && target == ReadFloors.NONE;
        lease.target(target);
        if (release) {
            context.callAsync(this::renewLease, this::onLeaseRenewed);
        }
    }

    /** Worker thread. */
    private Void renewLease() {
        if (table != null) {
            lease.renew(table);
        }
        return null;
    }

    private void onLeaseRenewed(Void ignored, @Nullable Throwable error) {
        if (error != null) {
            throw new FlinkRuntimeException(error.getMessage(), error);
        }
    }

    @Override
    public void close() {}

    private static long restoredFloor(WeirEnumeratorState state) {
        if (state.leaseFloor() != ReadFloors.NONE || state.consumerId() != null) {
            return state.leaseFloor();
        }
        // A version 1 checkpoint: its readers may hold splits up to its position.
        long floor = state.position();
        for (WeirSplit split : state.pending()) {
            floor = Math.min(floor, ReadFloors.of(split));
        }
        return floor;
    }

    private static String consumerId(ReadSpec spec, WeirEnumeratorState state) {
        if (spec.consumerId() != null) {
            return spec.consumerId();
        }
        if (state.consumerId() != null) {
            return state.consumerId();
        }
        String name = spec.location().replaceAll("/+$", "");
        name = name.substring(name.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9._-]", "_");
        if (name.isEmpty() || name.startsWith(".")) {
            name = "table";
        }
        if (name.length() > 100) {
            name = name.substring(0, 100);
        }
        return name + "-source-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
