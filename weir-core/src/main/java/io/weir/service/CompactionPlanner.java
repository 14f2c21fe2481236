package io.weir.service;

import io.weir.Compaction;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.ScanTask;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.options.TableOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What a {@link Compaction} rewrites ({@link Compaction#plan()}): the due file groups of the latest
 * snapshot, each whole or, for an incremental compaction of a keyed group, only its newest sorted
 * runs ({@link RunPicker}); around files another compaction rewrites, only runs newer than those.
 */
final class CompactionPlanner {
    private final Table table;
    private final boolean full;
    private final boolean wholeGroups;
    private final int minLogFiles;
    private final Predicate<FileGroupId> groups;
    private final Set<String> inFlight;
    private final boolean newestRunsOnly;

    CompactionPlanner(
            Table table,
            boolean full,
            boolean wholeGroups,
            int minLogFiles,
            Predicate<FileGroupId> groups,
            Set<String> inFlight,
            boolean newestRunsOnly) {
        this.table = table;
        this.full = full;
        this.wholeGroups = wholeGroups;
        this.minLogFiles = minLogFiles;
        this.groups = groups;
        this.inFlight = inFlight;
        this.newestRunsOnly = newestRunsOnly;
    }

    /** The tasks: due groups, or their parts, on the table's latest snapshot. */
    List<ScanTask> plan() {
        table.refresh();
        Snapshot snapshot = table.currentSnapshot();
        boolean keyed = table.schema().hasPrimaryKey();
        // Read once per plan, not per group: at 10,000 groups the lookups showed in profiles.
        TableOptions options = table.options();
        long target = options.targetFileSize();
        long undersized = Compaction.undersizedBelow(target);
        List<ScanTask> tasks = new ArrayList<>();
        snapshot.fileGroups()
                .forEach(
                        (group, files) -> {
                            if (newestRunsOnly || (!inFlight.isEmpty() && holdsAny(files))) {
                                ScanTask newer =
                                        keyed ? newestRuns(options, snapshot, group, files) : null;
                                if (newer != null && groups.test(group)) {
                                    tasks.add(newer);
                                }
                                return;
                            }
                            // A keyed group merges all its files; an append-only one packs only
                            // its logs and undersized base files, and leaves full files alone.
                            List<DataFile> inputs =
                                    keyed
                                            ? files
                                            : files.stream()
                                                    .filter(f -> isSmall(f, undersized))
                                                    .toList();
                            ScanTask task = new ScanTask(snapshot.id(), group, inputs);
                            if (groups.test(group)
                                    && isDue(options, task, keyed, undersized, target)) {
                                tasks.add(
                                        keyed && !full && !wholeGroups
                                                ? incremental(options, task)
                                                : task);
                            }
                        });
        return tasks;
    }

    /**
     * The part of a due keyed group that an incremental compaction merges: its newest sorted runs,
     * or all of it ({@link RunPicker}).
     */
    private ScanTask incremental(TableOptions options, ScanTask task) {
        RunPicker.Pick pick =
                RunPicker.pick(
                        task.files(),
                        minLogFiles,
                        options.compactionSizeRatio(),
                        options.compactionMaxSizeAmplificationPercent(),
                        dueByBytes(options, task.deltaFiles()));
        return pick.full() ? task : new ScanTask(task.snapshotId(), task.fileGroup(), pick.files());
    }

    private boolean holdsAny(List<DataFile> files) {
        for (DataFile f : files) {
            if (inFlight.contains(f.path())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The runs of a group newer than its files in flight and than its oldest run, if due ({@link
     * RunPicker#pickNewer}).
     */
    private ScanTask newestRuns(
            TableOptions options, Snapshot snapshot, FileGroupId group, List<DataFile> files) {
        RunPicker.Pick pick =
                RunPicker.pickNewer(
                        files,
                        inFlight,
                        newestRunsOnly,
                        minLogFiles,
                        options.compactionSizeRatio(),
                        options.compactionStallRuns());
        return pick == null ? null : new ScanTask(snapshot.id(), group, pick.files());
    }

    private static boolean dueByBytes(TableOptions options, List<DataFile> deltas) {
        long maxLogBytes = options.compactionMaxLogBytes();
        long deltaBytes = 0;
        for (DataFile f : deltas) {
            deltaBytes += f.sizeInBytes();
        }
        return maxLogBytes > 0 && !deltas.isEmpty() && deltaBytes >= maxLogBytes;
    }

    private static boolean isSmall(DataFile f, long undersized) {
        return f.kind() == FileKind.LOG || f.sizeInBytes() < undersized;
    }

    /**
     * Whether a group is due. A keyed group counts its sorted runs after its base ({@link
     * ScanTask#deltaRuns()}: each log file, and the base files of one bulk insert or incremental
     * compaction together); an append-only group counts its small files.
     */
    private boolean isDue(
            TableOptions options, ScanTask task, boolean keyed, long undersized, long target) {
        List<DataFile> deltas = task.deltaFiles();
        int small = 0;
        long smallBytes = 0;
        for (DataFile f : task.files()) {
            if (isSmall(f, undersized)) {
                small++;
                smallBytes += f.sizeInBytes();
            }
        }
        if (full) {
            return !deltas.isEmpty() || small >= 2;
        }
        boolean byLogs =
                (keyed ? task.deltaRuns() : small) >= minLogFiles || dueByBytes(options, deltas);
        // Append-only: small files that fill a target-sized file are packed into one.
        return byLogs || (!keyed && small >= 2 && smallBytes >= target);
    }
}
