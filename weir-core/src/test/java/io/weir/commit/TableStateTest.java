package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.testing.TestDataFiles;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableStateTest {

    private static Commit commit(long id, List<DataFile> added, List<String> removed) {
        return new Commit(id, id * 10, CommitKind.APPEND, 0, null, -1, added, removed, Map.of());
    }

    @Test
    void ordersBaseFilesFirstThenLogsBySequence() {
        DataFile log5 = TestDataFiles.log("d", 0).withSequence(5);
        DataFile log2 = TestDataFiles.log("d", 0).withSequence(2);
        DataFile base1 = TestDataFiles.base("d", 0, 1);
        DataFile other = TestDataFiles.log("e", 0).withSequence(3);
        TableState state =
                TableState.empty(0, 0)
                        .apply(commit(1, List.of(log5, other, log2, base1), List.of()));

        FileGroupId group = new FileGroupId(Partition.of("d"), 0);
        assertThat(state.files(group)).containsExactly(base1, log2, log5);
        assertThat(state.fileGroups().keySet())
                .containsExactly(group, new FileGroupId(Partition.of("e"), 0));
        assertThat(state.files()).containsExactly(base1, log2, log5, other);
        assertThat(state.files(Set.of(Partition.of("e")))).containsExactly(other);
        assertThat(state.lastSequence()).isEqualTo(5);
        assertThat(state.fileCount()).isEqualTo(4);
        assertThat(state.file(log2.path())).isEqualTo(log2);
    }

    @Test
    void removingTheLastFileDropsTheGroup() {
        DataFile log = TestDataFiles.log("d", 0).withSequence(1);
        TableState state =
                TableState.empty(0, 0).toBuilder()
                        .apply(commit(1, List.of(log), List.of()))
                        .apply(commit(2, List.of(), List.of(log.path())))
                        .build();
        assertThat(state.fileGroups()).isEmpty();
        assertThat(state.lastSequence()).isEqualTo(1);
        assertThat(state.commitId()).isEqualTo(2);
        assertThat(state.timestampMillis()).isEqualTo(20);
    }

    @Test
    void keepsTheGreatestCheckpointOfEachWriter() {
        TableState state =
                TableState.empty(0, 0).toBuilder()
                        .apply(withWriter(1, "a", 5))
                        .apply(withWriter(2, "b", 1))
                        .apply(withWriter(3, "a", 4))
                        .build();
        assertThat(state.writers())
                .containsOnly(
                        Map.entry("a", new WriterCheckpoint(5, 1)),
                        Map.entry("b", new WriterCheckpoint(1, 2)));
        assertThat(state.lastCheckpointId("a")).isEqualTo(5);
        assertThat(state.lastCheckpointId("nobody")).isEqualTo(-1);
    }

    private static Commit withWriter(long id, String writer, long checkpoint) {
        return new Commit(
                id, id, CommitKind.APPEND, 0, writer, checkpoint, List.of(), List.of(), Map.of());
    }

    @Test
    void rejectsCommitsThatDoNotFollow() {
        DataFile log = TestDataFiles.log("d", 0).withSequence(1);
        TableState one = TableState.empty(0, 0).apply(commit(1, List.of(log), List.of()));

        assertThatThrownBy(() -> one.apply(commit(3, List.of(), List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("commits must be applied in order");
        assertThatThrownBy(() -> one.apply(commit(2, List.of(), List.of("nope"))))
                .hasMessage("Cannot apply commit 2: it removes nope, which is not live");
        assertThatThrownBy(() -> one.apply(commit(2, List.of(log), List.of())))
                .hasMessageContaining("which is already live");
        assertThat(one.fileCount()).as("the state is immutable").isEqualTo(1);
    }

    @Test
    void builderIsSingleUse() {
        TableState.Builder b = TableState.empty(0, 0).toBuilder();
        b.build();
        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class);
    }

    /**
     * States made from one another share the files of the groups a commit left alone: random
     * commits over many groups, applied as a chain and as branches from earlier states, each state
     * equal to a model kept as plain collections, and every earlier state unchanged.
     */
    @Test
    void everyStateKeepsItsFilesWhileLaterStatesChange() {
        Random random = new Random(11);
        List<TableState> states = new ArrayList<>(List.of(TableState.empty(0, 0)));
        List<Map<String, DataFile>> models = new ArrayList<>(List.of(Map.of()));
        for (int c = 1; c <= 120; c++) {
            int from = c <= 80 ? states.size() - 1 : random.nextInt(states.size());
            TableState base = states.get(from);
            Map<String, DataFile> model = new HashMap<>(models.get(from));
            List<String> removed = new ArrayList<>();
            for (String path : model.keySet()) {
                if (random.nextInt(4) == 0) {
                    removed.add(path);
                }
            }
            removed.forEach(model::remove);
            List<DataFile> added = new ArrayList<>();
            for (int i = random.nextInt(60); i > 0; i--) {
                DataFile f =
                        TestDataFiles.log("d" + random.nextInt(3), random.nextInt(40))
                                .withSequence(base.lastSequence() + 1 + i);
                added.add(f);
                model.put(f.path(), f);
            }
            Commit next =
                    new Commit(
                            base.commitId() + 1,
                            c,
                            CommitKind.APPEND,
                            0,
                            null,
                            -1,
                            added,
                            removed,
                            Map.of());
            states.add(base.apply(next));
            models.add(model);
            for (int i = 0; i < states.size(); i++) {
                assertMatches(states.get(i), models.get(i));
            }
        }
    }

    private static void assertMatches(TableState state, Map<String, DataFile> model) {
        assertThat(state.fileCount()).isEqualTo(model.size());
        assertThat(state.files()).containsExactlyInAnyOrderElementsOf(model.values());
        Map<FileGroupId, List<DataFile>> byGroup = new TreeMap<>();
        for (DataFile f : model.values()) {
            byGroup.computeIfAbsent(f.fileGroup(), g -> new ArrayList<>()).add(f);
        }
        byGroup.values().forEach(files -> files.sort(TableState.FILE_ORDER));
        assertThat(state.fileGroups()).isEqualTo(byGroup);
        model.forEach((path, f) -> assertThat(state.file(path)).isEqualTo(f));
    }
}
