package io.weir.flink.source.internal;

import io.weir.ChangeTask;
import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.ScanTask;
import io.weir.flink.source.WeirSplit;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The enumerator's queues keep each file group on one reader, in commit order. */
class SplitQueuesTest {
    private static final int PARALLELISM = 3;

    @Test
    void eachFileGroupStaysWithOneReaderInCommitOrder() {
        SplitQueues queues = new SplitQueues(true, PARALLELISM);
        List<FileGroupId> groups = groups();
        for (FileGroupId g : groups) {
            queues.addAll(List.of(WeirSplit.of(new ScanTask(2, g, List.of()))));
        }
        for (long to = 3; to <= 5; to++) {
            List<WeirSplit> changes = new ArrayList<>();
            for (FileGroupId g : groups) {
                changes.add(change(g, to - 1, to));
            }
            queues.addAll(changes);
        }
        Set<Integer> owners = new HashSet<>();
        for (int subtask = 0; subtask < PARALLELISM; subtask++) {
            List<WeirSplit> taken = drain(queues, subtask);
            for (WeirSplit s : taken) {
                assertThat(SplitQueues.owner(s.fileGroup(), PARALLELISM)).isEqualTo(subtask);
                owners.add(subtask);
            }
            for (FileGroupId g : groups) {
                List<Long> order =
                        taken.stream()
                                .filter(s -> s.fileGroup().equals(g))
                                .map(WeirSplit::commitOrder)
                                .toList();
                assertThat(order).isSorted();
            }
        }
        assertThat(owners).as("groups spread over readers").hasSize(PARALLELISM);
        assertThat(queues.isEmpty()).isTrue();
    }

    @Test
    void splitsPutBackComeFirstInTheirOriginalOrder() {
        SplitQueues queues = new SplitQueues(true, 1);
        FileGroupId g = groups().get(0);
        queues.addAll(List.of(change(g, 1, 2), change(g, 2, 3), change(g, 3, 4)));
        WeirSplit first = queues.poll(0);
        WeirSplit second = queues.poll(0);
        queues.addBack(List.of(first, second));
        assertThat(drain(queues, 0)).extracting(WeirSplit::commitOrder).containsExactly(2L, 3L, 4L);
    }

    @Test
    void withoutAffinityAnyReaderTakesTheNextSplit() {
        SplitQueues queues = new SplitQueues(false, PARALLELISM);
        List<FileGroupId> groups = groups();
        groups.forEach(g -> queues.addAll(List.of(change(g, 0, 1))));
        assertThat(drain(queues, 2)).hasSize(groups.size());
        assertThat(queues.all()).isEmpty();
    }

    @Test
    void theOwnerOfAGroupIsStable() {
        FileGroupId g = new FileGroupId(Partition.of("2024-01-01"), 5);
        assertThat(SplitQueues.owner(g, 4))
                .isEqualTo(SplitQueues.owner(new FileGroupId(Partition.of("2024-01-01"), 5), 4))
                .isEqualTo(Math.floorMod(31 * "[2024-01-01]".hashCode() + 5, 4));
    }

    private static List<FileGroupId> groups() {
        List<FileGroupId> groups = new ArrayList<>();
        for (String day : new String[] {"a", "b"}) {
            for (int b = 0; b < 4; b++) {
                groups.add(new FileGroupId(Partition.of(day), b));
            }
        }
        return groups;
    }

    private static WeirSplit change(FileGroupId g, long from, long to) {
        return WeirSplit.of(new ChangeTask(from, to, g, List.of(), List.of()));
    }

    private static List<WeirSplit> drain(SplitQueues queues, int subtask) {
        List<WeirSplit> taken = new ArrayList<>();
        WeirSplit s;
        while ((s = queues.poll(subtask)) != null) {
            taken.add(s);
        }
        return taken;
    }
}
