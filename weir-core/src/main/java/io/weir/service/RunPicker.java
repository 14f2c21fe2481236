package io.weir.service;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.read.FileGroupReader;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Chooses what the compaction of a due keyed file group merges: the whole group, or only its newest
 * sorted runs (into base files in their place, plus a log file for the retractions they hold), as
 * size-tiered ("universal") LSM compaction does. The cost of a compaction then follows the size of
 * the change, not of the group, and a group holds a bounded number of runs (docs/table-services.md,
 * "Incremental compaction").
 *
 * <p>A sorted run is the files of one sequence and kind: a log file, a compaction's output, or the
 * base files of one bulk insert. Runs are sized by their records, not their bytes: a base file
 * (Parquet, zstd) and a log file (rows, LZ4) store a row in very different sizes, and the ratios
 * below compare how many rows each run holds.
 *
 * <p>In this order, with {@code n} runs oldest first and the deltas the {@code n - 1} runs after
 * the oldest:
 *
 * <ol>
 *   <li>the whole group if its oldest run is not a base (no base yet: rewriting it costs only its
 *       logs), if it is due by its log bytes, or if the deltas hold at least {@code
 *       max-size-amplification-percent} of the oldest run's records (the base is rewritten once the
 *       change since it is large enough to pay for it);
 *   <li>otherwise the newest runs: at least enough of them that the group is left with fewer deltas
 *       than {@code max-deltas} (when it has that many), then each next older run while the runs
 *       taken hold at least {@code 100 / (100 + size-ratio)} of its records;
 *   <li>the whole group if that reaches the oldest run, or if fewer than two runs were taken.
 * </ol>
 */
public final class RunPicker {
    /** Why a group is merged the way it is; for tests and logs. */
    public enum Reason {
        /** The oldest run is a log file: the group has no base yet. */
        NO_BASE,
        /** Due by {@code compaction.max-log-bytes}. */
        LOG_BYTES,
        /** The deltas reached {@code max-size-amplification-percent} of the oldest run. */
        SIZE_AMPLIFICATION,
        /** The newest runs merged by size ratio reach the oldest run. */
        REACHES_OLDEST,
        /** Fewer than two runs to merge. */
        TOO_FEW_RUNS,
        /** The newest runs whose sizes are within the size ratio of each other. */
        SIZE_RATIO,
        /** The newest runs that bring the group below {@code max-deltas}, then by size ratio. */
        RUN_COUNT,
        /**
         * Runs newer than the files another compaction is rewriting, while it runs ({@link
         * #pickNewer}).
         */
        NEWER_THAN_IN_FLIGHT
    }

    /**
     * A choice.
     *
     * @param files the files to merge: every file of the group when {@code full}, else the files of
     *     the newest runs taken
     * @param full whether the whole group is merged (its retractions dropped)
     * @param runs the number of runs merged
     * @param reason why
     */
    public record Pick(List<DataFile> files, boolean full, int runs, Reason reason) {
        public Pick {
            files = List.copyOf(files);
        }
    }

    private RunPicker() {}

    /** The group's sorted runs, oldest first (the read order of docs/format.md §6.6). */
    public static List<List<DataFile>> runs(List<DataFile> groupFiles) {
        List<DataFile> ordered = new ArrayList<>(groupFiles);
        ordered.sort(FileGroupReader.READ_ORDER);
        List<List<DataFile>> runs = new ArrayList<>();
        List<DataFile> run = null;
        for (DataFile f : ordered) {
            if (run == null
                    || run.get(0).sequence() != f.sequence()
                    || run.get(0).kind() != f.kind()) {
                run = new ArrayList<>();
                runs.add(run);
            }
            run.add(f);
        }
        return runs;
    }

    /**
     * Chooses what to merge of a due group.
     *
     * @param groupFiles every live file of the group
     * @param maxDeltas the trigger: a group with this many deltas is due ({@code
     *     compaction.max-log-files}, or the compaction's {@code minLogFiles})
     * @param sizeRatio {@code compaction.size-ratio}, percent
     * @param maxSizeAmplification {@code compaction.max-size-amplification-percent}
     * @param dueByBytes whether the group is due by {@code compaction.max-log-bytes}
     */
    public static Pick pick(
            List<DataFile> groupFiles,
            int maxDeltas,
            int sizeRatio,
            int maxSizeAmplification,
            boolean dueByBytes) {
        List<List<DataFile>> runs = runs(groupFiles);
        int n = runs.size();
        if (n == 0 || runs.get(0).stream().noneMatch(f -> f.kind() == FileKind.BASE)) {
            return whole(groupFiles, n, Reason.NO_BASE);
        }
        if (dueByBytes) {
            return whole(groupFiles, n, Reason.LOG_BYTES);
        }
        long oldest = records(runs.get(0));
        long deltas = 0;
        for (int i = 1; i < n; i++) {
            deltas += records(runs.get(i));
        }
        if (deltas * 100 >= oldest * maxSizeAmplification) {
            return whole(groupFiles, n, Reason.SIZE_AMPLIFICATION);
        }
        int deltaRuns = n - 1;
        int taken = 1;
        Reason reason = Reason.SIZE_RATIO;
        if (deltaRuns >= maxDeltas) {
            // Merging k runs into one leaves deltaRuns - k + 1 deltas: fewer than maxDeltas.
            taken = deltaRuns - maxDeltas + 2;
            reason = Reason.RUN_COUNT;
        }
        if (taken >= n) {
            return whole(groupFiles, n, Reason.REACHES_OLDEST);
        }
        long candidate = 0;
        for (int i = n - taken; i < n; i++) {
            candidate += records(runs.get(i));
        }
        while (taken < n) {
            long next = records(runs.get(n - 1 - taken));
            if (candidate * (100 + sizeRatio) < next * 100) {
                break;
            }
            candidate += next;
            taken++;
        }
        if (taken >= n) {
            return whole(groupFiles, n, Reason.REACHES_OLDEST);
        }
        if (taken < 2) {
            return whole(groupFiles, n, Reason.TOO_FEW_RUNS);
        }
        List<DataFile> files = new ArrayList<>();
        for (int i = n - taken; i < n; i++) {
            files.addAll(runs.get(i));
        }
        return new Pick(files, false, taken, reason);
    }

    /**
     * Chooses what to merge of a group while another compaction rewrites some of its files (or may
     * rewrite its base): only runs newer than every file in flight (and than the oldest run), so
     * that both commits remove disjoint files and the run merged here stays newer than what the
     * other compaction writes. Those runs accumulate while the other compaction runs (one per
     * checkpoint); they are merged once there are more than {@code keep}: {@code maxDeltas - 1}, so
     * that they are never more than a due group would hold, or fewer where the runs in flight
     * already bring the group near {@code stallRuns}, at which writers wait; but not below 2
     * (unless {@code maxDeltas} is 2), so that not every merge takes all the runs merged before and
     * its cost follows the size tiers. The newest runs that leave {@code keep} are taken, then each
     * next older one by size ratio, as {@link #pick} does.
     *
     * @param groupFiles every live file of the group
     * @param inFlight paths of the files the other compaction rewrites (of any group)
     * @param includingOldest whether the group's oldest run counts as in flight too ({@link
     *     io.weir.Compaction#newestRunsOnly}); otherwise a group holding no file in flight gets
     *     null
     * @return the runs to merge, or null if none is due
     */
    public static Pick pickNewer(
            List<DataFile> groupFiles,
            Set<String> inFlight,
            boolean includingOldest,
            int maxDeltas,
            int sizeRatio,
            int stallRuns) {
        List<List<DataFile>> runs = runs(groupFiles);
        int n = runs.size();
        if (n < 2) {
            return null;
        }
        int last = -1;
        for (int i = 0; i < n; i++) {
            for (DataFile f : runs.get(i)) {
                if (inFlight.contains(f.path())) {
                    last = i;
                }
            }
        }
        if (last < 0 && !includingOldest) {
            return null;
        }
        // The oldest run (the base) is never merged here: a whole-group rewrite is not this work.
        last = Math.max(last, 0);
        int newer = n - 1 - last;
        // Runs in flight as writers count them (ScanTask#deltaRuns): after the base, if any.
        boolean based = runs.get(0).stream().allMatch(f -> f.kind() == FileKind.BASE);
        int deltasInFlight = based ? last : last + 1;
        int keep =
                Math.min(Math.max(1, maxDeltas - 1), Math.max(2, stallRuns - 2 - deltasInFlight));
        if (newer <= keep || newer < 2) {
            return null;
        }
        int taken = newer - keep + 1;
        long candidate = 0;
        for (int i = n - taken; i < n; i++) {
            candidate += records(runs.get(i));
        }
        while (taken < newer) {
            long next = records(runs.get(n - 1 - taken));
            if (candidate * (100 + sizeRatio) < next * 100) {
                break;
            }
            candidate += next;
            taken++;
        }
        List<DataFile> files = new ArrayList<>();
        for (int i = n - taken; i < n; i++) {
            files.addAll(runs.get(i));
        }
        return new Pick(files, false, taken, Reason.NEWER_THAN_IN_FLIGHT);
    }

    private static Pick whole(List<DataFile> groupFiles, int runs, Reason reason) {
        return new Pick(groupFiles, true, runs, reason);
    }

    private static long records(List<DataFile> run) {
        long records = 0;
        for (DataFile f : run) {
            records += f.recordCount();
        }
        return records;
    }
}
