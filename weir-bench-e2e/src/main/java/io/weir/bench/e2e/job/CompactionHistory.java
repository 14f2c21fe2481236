package io.weir.bench.e2e.job;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A table's history replayed commit by commit, the same way for every sink (docs/benchmark.md,
 * "Compaction on"): the files each commit added and removed, whether it was an ingest commit (one
 * per checkpoint) or a compaction, and from that the write amplification, the sorted runs per file
 * group at each checkpoint, how long data waits to be compacted, and a timeline.
 *
 * <p>A file belongs to a file group (partition and bucket) and to a sorted run of it: files of one
 * run hold disjoint keys, so a read merges one stream per run. Each sink says which run a file is
 * in ({@link File#run}): a Weir log file and a Paimon level-0 file are a run of their own; Weir's
 * base files of one sequence, and Paimon's files of one level above 0, are one run.
 */
public final class CompactionHistory {
    /** A data file as a commit lists it. {@code run} is unique per run within the group. */
    public record File(String group, String name, long bytes, long rows, String run) {}

    /** One point of the timeline: the state right after an ingest commit. */
    public record Point(
            double seconds,
            long rowsCommitted,
            int liveFiles,
            int maxRuns,
            int backlogFiles,
            long backlogBytes) {}

    private final Map<String, File> live = new HashMap<>();

    /** Live files written by an ingest commit and not rewritten or moved since: the backlog. */
    private final Map<String, Long> pendingSince = new HashMap<>();

    /** Per ingest commit, its files still pending. */
    private final Map<Long, Set<String>> pendingOfCommit = new HashMap<>();

    private final Map<Long, Long> commitMillis = new HashMap<>();
    private final List<Long> latenciesMs = new ArrayList<>();
    private final List<Integer> maxRunsAtCheckpoints = new ArrayList<>();
    private final List<Point> timeline = new ArrayList<>();
    private long firstMillis = Long.MIN_VALUE;
    private long ingestCommits;

    /** Ingest commits that added data files (Paimon may commit a snapshot without any). */
    private long ingestCommitsWithFiles;

    private long compactionCommits;
    private long ingestedBytes;
    private long ingestedRows;
    private long compactionBytesWritten;
    private long compactionBytesRead;

    /** Starts from a state whose history is gone (expired commits): its files are not pending. */
    public void start(List<File> files) {
        files.forEach(f -> live.put(f.name(), f));
    }

    /**
     * Applies one commit.
     *
     * @param id the commit's (snapshot's) id, increasing
     * @param millis its time
     * @param ingest an ingest commit (Weir APPEND, Paimon APPEND), else a compaction
     * @param added the files it added; a name that it also removed is a file moved to another run
     *     without being rewritten (Paimon's upgrade of a level-0 file): no bytes written
     * @param removed the names of the files it removed
     */
    public void commit(
            long id, long millis, boolean ingest, List<File> added, List<String> removed) {
        if (firstMillis == Long.MIN_VALUE) {
            firstMillis = millis;
        }
        Set<String> removedNames = new HashSet<>(removed);
        for (String name : removed) {
            File file = live.remove(name);
            if (file == null) {
                throw new IllegalStateException(
                        "Commit " + id + " removes " + name + ", which is not live");
            }
            if (!ingest && !addedName(added, name)) {
                compactionBytesRead += file.bytes();
            }
            Long since = pendingSince.remove(name);
            if (since != null) {
                Set<String> pending = pendingOfCommit.get(since);
                pending.remove(name);
                if (pending.isEmpty()) {
                    pendingOfCommit.remove(since);
                    latenciesMs.add(millis - commitMillis.get(since));
                }
            }
        }
        for (File file : added) {
            live.put(file.name(), file);
            if (ingest) {
                ingestedBytes += file.bytes();
                ingestedRows += file.rows();
                pendingSince.put(file.name(), id);
                pendingOfCommit.computeIfAbsent(id, k -> new HashSet<>()).add(file.name());
            } else if (!removedNames.contains(file.name())) {
                compactionBytesWritten += file.bytes();
            }
        }
        if (ingest) {
            ingestCommits++;
            if (!added.isEmpty()) {
                ingestCommitsWithFiles++;
            }
            commitMillis.put(id, millis);
            int maxRuns = maxRuns();
            maxRunsAtCheckpoints.add(maxRuns);
            long backlogBytes = 0;
            for (String name : pendingSince.keySet()) {
                backlogBytes += live.get(name).bytes();
            }
            timeline.add(
                    new Point(
                            (millis - firstMillis) / 1e3,
                            ingestedRows,
                            live.size(),
                            maxRuns,
                            pendingSince.size(),
                            backlogBytes));
        } else {
            compactionCommits++;
        }
    }

    private static boolean addedName(List<File> added, String name) {
        for (File f : added) {
            if (f.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** The most sorted runs any file group holds now. */
    int maxRuns() {
        Map<String, Set<String>> runs = new HashMap<>();
        for (File f : live.values()) {
            runs.computeIfAbsent(f.group(), k -> new HashSet<>()).add(f.run());
        }
        return runs.values().stream().mapToInt(Set::size).max().orElse(0);
    }

    int fileGroups() {
        Set<String> groups = new HashSet<>();
        live.values().forEach(f -> groups.add(f.group()));
        return groups.size();
    }

    List<Point> timeline() {
        return List.copyOf(timeline);
    }

    /**
     * Adds the figures to a line: {@code ingest_commits}, {@code ingested_rows} (the records of the
     * files they added: the source's rows less what a sink's buffer merged before writing), {@code
     * ingest_commits_with_files} (the ones {@code compacted_commits} and {@code
     * uncompacted_commits} count), {@code compaction_commits}, {@code ingested_bytes}, {@code
     * compaction_bytes_written}, {@code compaction_bytes_read}, {@code write_amp}, {@code
     * runs_max}, {@code runs_median}, {@code file_groups}, {@code live_files}, {@code live_bytes},
     * {@code compacted_commits}, {@code uncompacted_commits}, {@code compaction_latency_p50_s},
     * {@code compaction_latency_max_s} and {@code timeline}.
     */
    public JsonLine addTo(JsonLine line) {
        long liveBytes = live.values().stream().mapToLong(File::bytes).sum();
        int[] runs = maxRunsAtCheckpoints.stream().mapToInt(Integer::intValue).sorted().toArray();
        long[] latencies = latenciesMs.stream().mapToLong(Long::longValue).sorted().toArray();
        return line.put("ingest_commits", ingestCommits)
                .put("ingested_rows", ingestedRows)
                .put("ingest_commits_with_files", ingestCommitsWithFiles)
                .put("compaction_commits", compactionCommits)
                .put("ingested_bytes", ingestedBytes)
                .put("compaction_bytes_written", compactionBytesWritten)
                .put("compaction_bytes_read", compactionBytesRead)
                .put(
                        "write_amp",
                        ingestedBytes == 0
                                ? Double.NaN
                                : (double) compactionBytesWritten / ingestedBytes)
                .put("runs_max", runs.length == 0 ? -1 : runs[runs.length - 1])
                .put("runs_median", median(runs))
                .put("file_groups", (long) fileGroups())
                .put("live_files", (long) live.size())
                .put("live_bytes", liveBytes)
                .put("compacted_commits", (long) latencies.length)
                .put("uncompacted_commits", (long) pendingOfCommit.size())
                .put(
                        "compaction_latency_p50_s",
                        latencies.length == 0
                                ? Double.NaN
                                : CommitProbe.percentile(latencies, 0.5) / 1e3)
                .put(
                        "compaction_latency_max_s",
                        latencies.length == 0 ? Double.NaN : latencies[latencies.length - 1] / 1e3)
                .put("timeline", timelineText());
    }

    /** The lower median (an actual value) of sorted counts, or -1. */
    static int median(int[] sorted) {
        return sorted.length == 0 ? -1 : sorted[(sorted.length - 1) / 2];
    }

    /**
     * The timeline as text: one point per ingest commit, {@code ;}-separated, each {@code
     * seconds,rows,files,max runs,backlog files,backlog bytes}.
     */
    String timelineText() {
        StringBuilder s = new StringBuilder();
        for (Point p : timeline) {
            if (!s.isEmpty()) {
                s.append(';');
            }
            s.append(
                    String.format(
                            Locale.ROOT,
                            "%.3f,%d,%d,%d,%d,%d",
                            p.seconds(),
                            p.rowsCommitted(),
                            p.liveFiles(),
                            p.maxRuns(),
                            p.backlogFiles(),
                            p.backlogBytes()));
        }
        return s.toString();
    }

    /** Parses {@link #timelineText()}. */
    public static List<Point> parseTimeline(String text) {
        List<Point> points = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return points;
        }
        for (String p : text.split(";")) {
            String[] v = p.split(",");
            if (v.length != 6) {
                throw new IllegalArgumentException("Bad timeline point " + Arrays.toString(v));
            }
            points.add(
                    new Point(
                            Double.parseDouble(v[0]),
                            Long.parseLong(v[1]),
                            Integer.parseInt(v[2]),
                            Integer.parseInt(v[3]),
                            Integer.parseInt(v[4]),
                            Long.parseLong(v[5])));
        }
        return points;
    }
}
