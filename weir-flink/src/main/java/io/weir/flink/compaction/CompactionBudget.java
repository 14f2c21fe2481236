package io.weir.flink.compaction;

import io.weir.DataFile;
import io.weir.ScanTask;
import io.weir.options.TableOptions;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How much one compaction round may do: at most {@code maxFileGroups} file groups and {@code
 * maxBytes} input bytes, the groups with the most sorted runs after their base first (they cost
 * readers the most). A round always takes at least {@code minFileGroups} groups (as many as are
 * due), whatever their bytes: a group larger than the byte budget still gets compacted, and a round
 * of whole-group rewrites larger than the budget still gives each of its threads a group instead of
 * leaving all but one idle while writers wait for it ({@code compaction.stall-runs}).
 */
public record CompactionBudget(int maxFileGroups, long maxBytes, int minFileGroups) {
    private static final Comparator<Due> MOST_DUE_FIRST =
            Comparator.comparingInt(Due::deltaRuns)
                    .thenComparingLong(Due::deltaBytes)
                    .reversed()
                    .thenComparing(d -> d.task().fileGroup());

    /**
     * A planned group and what ranks it, computed once: the sort compares each group many times,
     * and a table of thousands of groups plans a round after every commit.
     */
    private record Due(ScanTask task, int deltaRuns, long deltaBytes) {
        static Due of(ScanTask task) {
            long bytes = 0;
            for (DataFile f : task.deltaFiles()) {
                bytes += f.sizeInBytes();
            }
            return new Due(task, task.deltaRuns(), bytes);
        }
    }

    public CompactionBudget {
        if (maxFileGroups < 1 || maxBytes < 1 || minFileGroups < 1) {
            throw new IllegalArgumentException(
                    "Invalid compaction budget: "
                            + maxFileGroups
                            + " groups, "
                            + maxBytes
                            + " b, at least "
                            + minFileGroups
                            + " groups");
        }
    }

    /**
     * The budget of the table options {@code compaction.round.*} for a round that rewrites on
     * {@code threads} threads ({@code compaction.threads} for a round, one for a merge of newer
     * runs): at least a group for each of them.
     */
    public static CompactionBudget of(TableOptions options, int threads) {
        int maxFileGroups = options.compactionRoundMaxFileGroups();
        return new CompactionBudget(
                maxFileGroups, options.compactionRoundMaxBytes(), Math.min(threads, maxFileGroups));
    }

    /** The planned groups this round compacts, most due first. */
    public List<ScanTask> select(List<ScanTask> planned) {
        List<Due> sorted = new ArrayList<>(planned.size());
        for (ScanTask task : planned) {
            sorted.add(Due.of(task));
        }
        sorted.sort(MOST_DUE_FIRST);
        List<ScanTask> chosen = new ArrayList<>();
        long bytes = 0;
        for (Due due : sorted) {
            ScanTask task = due.task();
            long size = bytes(task);
            if (chosen.size() == maxFileGroups
                    || (chosen.size() >= minFileGroups && bytes + size > maxBytes)) {
                break;
            }
            chosen.add(task);
            bytes += size;
        }
        return chosen;
    }

    /** The bytes of every file of a group. */
    public static long bytes(ScanTask task) {
        return task.files().stream().mapToLong(DataFile::sizeInBytes).sum();
    }
}
