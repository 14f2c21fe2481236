package io.weir.flink.compaction;

import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.ScanTask;
import io.weir.options.TableOptions;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class CompactionBudgetTest {
    /**
     * A group of one base of {@code baseBytes} (none if 0) and {@code logs} log files of {@code
     * logBytes} each, every one a sorted run of its own.
     */
    private static ScanTask group(int bucket, long baseBytes, int logs, long logBytes) {
        List<DataFile> files = new ArrayList<>();
        if (baseBytes > 0) {
            files.add(file(bucket, FileKind.BASE, 1, baseBytes));
        }
        for (int i = 0; i < logs; i++) {
            files.add(file(bucket, FileKind.LOG, 2 + i, logBytes));
        }
        return new ScanTask(7, new FileGroupId(Partition.UNPARTITIONED, bucket), files);
    }

    private static DataFile file(int bucket, FileKind kind, long sequence, long bytes) {
        return new DataFile(
                "bucket-" + bucket + "/" + kind + "-" + sequence,
                kind,
                Partition.UNPARTITIONED,
                bucket,
                100,
                bytes,
                sequence,
                0,
                List.of("1"),
                List.of("9"),
                null);
    }

    private static List<Integer> buckets(List<ScanTask> tasks) {
        return tasks.stream().map(t -> t.fileGroup().bucket()).toList();
    }

    @Test
    void theGroupsWithTheMostRunsAfterTheirBaseComeFirstThenTheMostDeltaBytesThenTheGroupOrder() {
        List<ScanTask> planned =
                new ArrayList<>(
                        List.of(
                                group(0, 1_000, 2, 10),
                                group(1, 10, 5, 10), // 5 runs, 50 delta bytes
                                group(2, 1_000_000, 5, 20), // 5 runs, 100 delta bytes
                                group(3, 0, 3, 10),
                                group(4, 10, 5, 10), // as group 1: the group order decides
                                group(5, 10, 1, 500)));
        List<Integer> expected = List.of(2, 1, 4, 3, 0, 5);
        Random random = new Random(11);
        for (int i = 0; i < 20; i++) {
            Collections.shuffle(planned, random);
            assertThat(buckets(new CompactionBudget(64, Long.MAX_VALUE, 1).select(planned)))
                    .isEqualTo(expected);
        }
    }

    @Test
    void aRoundTakesAtMostItsGroupsAndBytesButAlwaysOneGroup() {
        List<ScanTask> planned =
                List.of(group(0, 100, 3, 10), group(1, 100, 2, 10), group(2, 100, 1, 10));
        // bytes of every file of a group: 130, 120, 110
        assertThat(buckets(new CompactionBudget(2, Long.MAX_VALUE, 1).select(planned)))
                .isEqualTo(List.of(0, 1));
        assertThat(buckets(new CompactionBudget(64, 250, 1).select(planned)))
                .isEqualTo(List.of(0, 1));
        assertThat(buckets(new CompactionBudget(64, 249, 1).select(planned))).isEqualTo(List.of(0));
        assertThat(buckets(new CompactionBudget(64, 1, 1).select(planned))).isEqualTo(List.of(0));
        assertThat(new CompactionBudget(64, 1, 1).select(List.of())).isEmpty();
    }

    @Test
    void aRoundTakesAGroupForEachOfItsThreadsWhateverTheirBytes() {
        List<ScanTask> planned =
                List.of(group(0, 100, 3, 10), group(1, 100, 2, 10), group(2, 100, 1, 10));
        // Each group alone is over the byte budget: a round of two threads still takes two.
        assertThat(buckets(new CompactionBudget(64, 1, 2).select(planned)))
                .isEqualTo(List.of(0, 1));
        // Within the threads' groups, the bytes decide the rest.
        assertThat(buckets(new CompactionBudget(64, 360, 2).select(planned)))
                .isEqualTo(List.of(0, 1, 2));
        assertThat(buckets(new CompactionBudget(64, 359, 2).select(planned)))
                .isEqualTo(List.of(0, 1));
        // Never more than are due, nor than the group limit.
        assertThat(buckets(new CompactionBudget(64, 1, 8).select(planned)))
                .isEqualTo(List.of(0, 1, 2));
        assertThat(buckets(new CompactionBudget(1, 1, 1).select(planned))).isEqualTo(List.of(0));
    }

    @Test
    void theBudgetOfTheTableOptionsTakesAGroupPerThreadOfTheRound() {
        TableOptions defaults = TableOptions.of(Map.of());
        assertThat(CompactionBudget.of(defaults, defaults.compactionThreads()))
                .isEqualTo(new CompactionBudget(64, 2L << 30, 2));
        // A merge of newer runs rewrites on one thread.
        assertThat(CompactionBudget.of(defaults, 1))
                .isEqualTo(new CompactionBudget(64, 2L << 30, 1));
        TableOptions small =
                TableOptions.of(
                        Map.of(
                                "compaction.round.max-file-groups", "3",
                                "compaction.round.max-bytes", "1 mb"));
        assertThat(CompactionBudget.of(small, 8)).isEqualTo(new CompactionBudget(3, 1L << 20, 3));
    }
}
