package io.weir.bench.e2e.job;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A Flink metric reporter in the child JVM that records the duration of every commit of the sink
 * and the job's completed checkpoints, from the sinks' own committer metrics (docs/benchmark.md,
 * "On S3"):
 *
 * <ul>
 *   <li>Weir: the committer's {@code weir.commits} counter and {@code weir.lastCommitDurationMs}
 *       gauge (weir-flink's {@code CommitterMetrics}: the wall time of the committer's commit call,
 *       {@code Table.newAppend()...commit()}), and {@code weir.committedFiles};
 *   <li>Paimon: the committer's {@code commit.commitDuration} histogram (its count is the number of
 *       commits) and {@code commit.lastCommitDuration} gauge (Paimon's {@code CommitMetrics}: the
 *       wall time of {@code FileStoreCommitImpl}'s commit, manifests and snapshot included), and
 *       {@code commit.lastTableFilesAdded};
 *   <li>the job's {@code numberOfCompletedCheckpoints}.
 * </ul>
 *
 * A thread polls them every 10 ms and records the last duration whenever the commit count grows
 * (commits come once per checkpoint, seconds apart); a last poll runs when the metrics are removed
 * at the end of the job. {@link #current()} is the probe of the last mini cluster of this JVM.
 */
public final class CommitProbe implements MetricReporter {
    /** The reporter's name in Flink's configuration. */
    static final String NAME = "weirbenchcommits";

    private static volatile CommitProbe current;

    /** The counting proxy's counters URL, or null: read at each commit (steady-state figures). */
    static volatile String countsUrl;

    /** The prefix of the counters' keys: {@code s3_} or {@code hdfs_}. */
    static volatile String countsPrefix = "s3_";

    private Map<String, Long> countsAtFirstCommit;
    private Map<String, Long> countsAtLastCommit;
    private long commitsAtLastCounts;
    private Map<String, Long> countsAtPreviousCommit;
    private long commitsAtPreviousCounts;

    private final List<Long> durationsMs = new ArrayList<>();

    /** The commit metrics of one committer subtask (a sink's committer may run in several). */
    private static final class Committer {
        Counter weirCommits;
        Gauge<?> weirLastDuration;
        Counter weirFiles;
        Histogram paimonDurations;
        Gauge<?> paimonLastDuration;
        Gauge<?> paimonFilesAdded;
        long seen;
    }

    private final Map<String, Committer> committers = new LinkedHashMap<>();
    private Gauge<?> checkpointsGauge;
    private Gauge<?> checkpointDurationGauge;

    /** The duration of each completed checkpoint, in ms, in order. */
    private final List<Long> checkpointDurationsMs = new ArrayList<>();

    private long commitsSeen;
    private long files;
    private long checkpoints;
    private volatile boolean closed;

    /** The probe of the last mini cluster started in this JVM, or null. */
    public static CommitProbe current() {
        return current;
    }

    @Override
    public void open(MetricConfig config) {
        current = this;
        Thread poller =
                new Thread(
                        () -> {
                            while (!closed) {
                                poll();
                                try {
                                    Thread.sleep(10);
                                } catch (InterruptedException e) {
                                    return;
                                }
                            }
                        },
                        "weir-bench-commit-probe");
        poller.setDaemon(true);
        poller.start();
    }

    @Override
    public void close() {
        poll();
        closed = true;
    }

    @Override
    public synchronized void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
        String id = group.getMetricIdentifier(name);
        String scope = id.substring(0, id.length() - name.length());
        switch (name) {
            case "commits" -> {
                if (id.contains(".weir.") && metric instanceof Counter counter) {
                    committer(scope).weirCommits = counter;
                }
            }
            case "lastCommitDurationMs" -> {
                if (metric instanceof Gauge<?> g) {
                    committer(scope).weirLastDuration = g;
                }
            }
            case "committedFiles" -> {
                if (id.contains(".weir.") && metric instanceof Counter counter) {
                    committer(scope).weirFiles = counter;
                }
            }
            case "commitDuration" -> {
                if (metric instanceof Histogram h) {
                    committer(scope).paimonDurations = h;
                }
            }
            case "lastCommitDuration" -> {
                if (metric instanceof Gauge<?> g) {
                    committer(scope).paimonLastDuration = g;
                }
            }
            case "lastTableFilesAdded" -> {
                if (metric instanceof Gauge<?> g) {
                    committer(scope).paimonFilesAdded = g;
                }
            }
            case "numberOfCompletedCheckpoints" -> {
                if (metric instanceof Gauge<?> g) {
                    checkpointsGauge = g;
                }
            }
            case "lastCheckpointDuration" -> {
                if (metric instanceof Gauge<?> g) {
                    checkpointDurationGauge = g;
                }
            }
            default -> {}
        }
    }

    private Committer committer(String scope) {
        return committers.computeIfAbsent(scope, k -> new Committer());
    }

    @Override
    public synchronized void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
        poll(); // the last commit of a bounded job comes just before its metrics go
        String id = group.getMetricIdentifier(name);
        committers.remove(id.substring(0, id.length() - name.length()));
        if (metric == checkpointsGauge) {
            checkpointsGauge = null;
        }
        if (metric == checkpointDurationGauge) {
            checkpointDurationGauge = null;
        }
    }

    private synchronized void poll() {
        if (checkpointsGauge != null) {
            long completed = asLong(checkpointsGauge.getValue());
            if (completed > checkpoints && checkpointDurationGauge != null) {
                // Polled every 10 ms, checkpoints are seconds apart: the last one's duration.
                checkpointDurationsMs.add(asLong(checkpointDurationGauge.getValue()));
            }
            checkpoints = Math.max(checkpoints, completed);
        }
        for (Committer c : committers.values()) {
            if (c.weirCommits != null && c.weirLastDuration != null) {
                long count = c.weirCommits.getCount();
                if (count > c.seen) {
                    durationsMs.add(asLong(c.weirLastDuration.getValue()));
                    files += c.weirFiles == null ? 0 : c.weirFiles.getCount() - filesOf(c);
                    c.seen = count;
                    commitsSeen++;
                    countsAtCommit();
                }
            }
            if (c.paimonDurations != null && c.paimonLastDuration != null) {
                long count = c.paimonDurations.getCount();
                if (count > c.seen) {
                    durationsMs.add(asLong(c.paimonLastDuration.getValue()));
                    files += c.paimonFilesAdded == null ? 0 : asLong(c.paimonFilesAdded.getValue());
                    c.seen = count;
                    commitsSeen++;
                    countsAtCommit();
                }
            }
        }
    }

    private final Map<Committer, Long> weirFilesSeen = new java.util.IdentityHashMap<>();

    /** Weir's committed files of a committer counted so far (its counter is cumulative). */
    private long filesOf(Committer c) {
        long before = weirFilesSeen.getOrDefault(c, 0L);
        weirFilesSeen.put(c, c.weirFiles.getCount());
        return before;
    }

    /** Reads the proxy's counters right after a commit was seen (within the 10 ms poll). */
    private void countsAtCommit() {
        String url = countsUrl;
        if (url == null) {
            return;
        }
        try {
            Map<String, Long> counts = RequestCounts.fetch(url);
            if (countsAtFirstCommit == null) {
                countsAtFirstCommit = counts;
            }
            countsAtPreviousCommit = countsAtLastCommit;
            commitsAtPreviousCounts = commitsAtLastCounts;
            countsAtLastCommit = counts;
            commitsAtLastCounts = durationsMs.size();
        } catch (IOException e) {
            // the steady-state figures are then missing
        }
    }

    private static long asLong(Object value) {
        return value instanceof Number n ? n.longValue() : -1;
    }

    /** Adds checkpoints, commits, files, commit_p50_ms, commit_p99_ms, commit_max_ms to a line. */
    public synchronized JsonLine addTo(JsonLine line) {
        poll();
        long[] sorted = durationsMs.stream().mapToLong(Long::longValue).sorted().toArray();
        line.put("checkpoints", checkpoints)
                .put("commits", (long) sorted.length)
                .put("committed_files", files)
                .put("commit_p50_ms", percentile(sorted, 0.50))
                .put("commit_p99_ms", percentile(sorted, 0.99))
                .put("commit_max_ms", sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1])
                .put(
                        "commit_ms",
                        Arrays.toString(durationsMs.stream().mapToLong(l -> l).toArray()));
        if (!checkpointDurationsMs.isEmpty()) {
            long[] cp = checkpointDurationsMs.stream().mapToLong(l -> l).sorted().toArray();
            line.put("checkpoint_p50_ms", percentile(cp, 0.5))
                    .put("checkpoint_max_ms", cp[cp.length - 1])
                    .put(
                            "checkpoint_ms",
                            Arrays.toString(
                                    checkpointDurationsMs.stream().mapToLong(l -> l).toArray()));
        }
        if (countsAtFirstCommit != null && commitsAtLastCounts > 1) {
            // From the first commit on: the cost of a checkpoint in steady state, without the
            // job's start (table loading) before it. Up to the commit before the last when there
            // is one: the last commit follows the end of the input, where the writers close.
            boolean beforeLast = commitsAtPreviousCounts > 1;
            Map<String, Long> end = beforeLast ? countsAtPreviousCommit : countsAtLastCommit;
            line.put(
                    "steady_commits",
                    (beforeLast ? commitsAtPreviousCounts : commitsAtLastCounts) - 1);
            end.forEach(
                    (k, v) ->
                            line.put(
                                    countsPrefix + "steady_" + k,
                                    v - countsAtFirstCommit.getOrDefault(k, 0L)));
        }
        return line;
    }

    /** The nearest-rank percentile (the smallest value with at least q of them at or below it). */
    static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /** Creates the probe; named in Flink's configuration by {@link Environments}. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new CommitProbe();
        }
    }
}
