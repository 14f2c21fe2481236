package io.weir.service;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.service.RunPicker.Pick;
import io.weir.service.RunPicker.Reason;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The choices of incremental compaction for one due file group: which runs it merges and why, with
 * the defaults of the table options (trigger 5 deltas, size ratio 1 %, size amplification 200 %)
 * unless a case says otherwise.
 */
class RunPickerTest {
    private static final int TRIGGER = 5;
    private static final int RATIO = 1;
    private static final int AMP = 200;

    private int counter;

    @Test
    void equalLogsOverABigBaseAreMergedTogetherAndTheBaseStays() {
        List<DataFile> group = group(base(1, 10_000), log(2, 100), log(3, 100), log(4, 100));
        group.add(log(5, 100));
        group.add(log(6, 100));

        Pick pick = RunPicker.pick(group, TRIGGER, RATIO, AMP, false);

        assertThat(pick.full()).isFalse();
        assertThat(pick.runs()).isEqualTo(5);
        assertThat(sequences(pick)).containsExactly(2L, 3L, 4L, 5L, 6L);
        assertThat(pick.reason()).isEqualTo(Reason.RUN_COUNT);
    }

    @Test
    void aBiggerOlderRunStopsTheSizeRatio() {
        // Runs as universal compaction leaves them: 2000, 400, then four new logs of 100.
        List<DataFile> group =
                group(base(1, 10_000), log(6, 2_000), log(9, 400), log(10, 100), log(11, 100));
        group.add(log(12, 100));
        group.add(log(13, 100));

        Pick pick = RunPicker.pick(group, TRIGGER, RATIO, AMP, false);

        // 6 deltas, trigger 5: at least 6 - 5 + 2 = 3 newest runs (300); the ratio takes the
        // fourth (300 * 1.01 >= 100) and the 400 (400 * 1.01 >= 400); 800 * 1.01 < 2000 stops.
        assertThat(pick.full()).isFalse();
        assertThat(sequences(pick)).containsExactly(9L, 10L, 11L, 12L, 13L);
        assertThat(pick.reason()).isEqualTo(Reason.RUN_COUNT);
    }

    @Test
    void theSizeRatioTakesMoreThanTheRunCountNeeds() {
        // 5 deltas: 2 newest runs are needed; 200 * 1.01 >= 200 takes the third, 400 >= 350 the
        // fourth, 750 * 1.01 < 800 stops before the fifth.
        List<DataFile> group =
                group(base(1, 10_000), log(2, 800), log(3, 350), log(4, 200), log(5, 100));
        group.add(log(6, 100));

        Pick pick = RunPicker.pick(group, TRIGGER, RATIO, AMP, false);

        assertThat(sequences(pick)).containsExactly(3L, 4L, 5L, 6L);
    }

    @Test
    void belowTheTriggerOnlyTheSizeRatioPicks() {
        // Due by a smaller trigger given to the compaction (minLogFiles(2)): 2 deltas of 100
        // and 100 merge; 3 of 100, 300, 100 with trigger 3: 2 runs needed, 400 >= 300 takes all.
        Pick two =
                RunPicker.pick(group(base(1, 10_000), log(2, 100), log(3, 100)), 2, 1, AMP, false);
        assertThat(sequences(two)).containsExactly(2L, 3L);
        assertThat(two.reason()).isEqualTo(Reason.RUN_COUNT);

        Pick ratioOnly =
                RunPicker.pick(
                        group(base(1, 10_000), log(2, 1000), log(3, 100), log(4, 100)),
                        10,
                        RATIO,
                        AMP,
                        false);
        assertThat(sequences(ratioOnly)).containsExactly(3L, 4L);
        assertThat(ratioOnly.reason()).isEqualTo(Reason.SIZE_RATIO);
    }

    @Test
    void deltasThatReachTheSizeAmplificationRewriteTheBase() {
        // 2,000 delta records against a base of 1,000: 200 %.
        List<DataFile> group =
                group(base(1, 1_000), log(2, 1_200), log(3, 500), log(4, 100), log(5, 100));
        group.add(log(6, 100));

        Pick pick = RunPicker.pick(group, TRIGGER, RATIO, AMP, false);

        assertThat(pick.full()).isTrue();
        assertThat(pick.files()).hasSize(6);
        assertThat(pick.reason()).isEqualTo(Reason.SIZE_AMPLIFICATION);

        // One record fewer stays incremental; amplification 0 always rewrites the base.
        List<DataFile> below =
                group(base(1, 1_000), log(2, 1_199), log(3, 500), log(4, 100), log(5, 100));
        below.add(log(6, 100));
        assertThat(RunPicker.pick(below, TRIGGER, RATIO, AMP, false).full()).isFalse();
        assertThat(RunPicker.pick(below, TRIGGER, RATIO, 0, false).reason())
                .isEqualTo(Reason.SIZE_AMPLIFICATION);
    }

    @Test
    void runsThatReachTheBaseBySizeRatioRewriteIt() {
        // Deltas of 150 % of the base: below the amplification, but the newest runs outgrow
        // each older one up to the base.
        List<DataFile> group = group(base(1, 1_000), log(2, 500), log(3, 500), log(4, 500));

        Pick pick = RunPicker.pick(group, 3, RATIO, AMP, false);

        assertThat(pick.full()).isTrue();
        assertThat(pick.reason()).isEqualTo(Reason.REACHES_OLDEST);
    }

    @Test
    void aGroupWithoutBaseIsRewrittenWhole() {
        Pick pick =
                RunPicker.pick(
                        group(log(2, 100), log(3, 100), log(4, 100), log(5, 100), log(6, 100)),
                        TRIGGER,
                        RATIO,
                        AMP,
                        false);
        assertThat(pick.full()).isTrue();
        assertThat(pick.reason()).isEqualTo(Reason.NO_BASE);
    }

    @Test
    void dueByLogBytesRewritesWhole() {
        Pick pick =
                RunPicker.pick(
                        group(base(1, 10_000), log(2, 100), log(3, 100)),
                        TRIGGER,
                        RATIO,
                        AMP,
                        true);
        assertThat(pick.full()).isTrue();
        assertThat(pick.reason()).isEqualTo(Reason.LOG_BYTES);
    }

    @Test
    void oneRunOfSeveralFilesIsTakenWholeOrNotAtAll() {
        // A bulk insert's base files share a sequence: one run. Trigger 2 with 2 deltas takes the
        // 2 newest runs: the log and both files of the bulk run; the base (10,000) stops there.
        List<DataFile> group = group(base(1, 10_000), base(4, 40), base(4, 40), log(7, 50));
        Pick pick = RunPicker.pick(group, 2, RATIO, AMP, false);
        assertThat(pick.full()).isFalse();
        assertThat(pick.runs()).isEqualTo(2);
        assertThat(sequences(pick)).containsExactly(4L, 4L, 7L);
    }

    @Test
    void fewerThanTwoRunsToMergeRewritesWhole() {
        // Due by 5 delta files that are one bulk run: nothing newer to merge it with.
        List<DataFile> group = group(base(1, 10_000));
        for (int i = 0; i < 5; i++) {
            group.add(base(4, 40));
        }
        Pick pick = RunPicker.pick(group, TRIGGER, RATIO, AMP, false);
        assertThat(pick.full()).isTrue();
        assertThat(pick.reason()).isEqualTo(Reason.TOO_FEW_RUNS);
    }

    @Test
    void aroundFilesInFlightOnlyNewerRunsAreMergedOnceMoreThanTheTriggerAllows() {
        // A whole rewrite of base + 3 logs is in flight; runs after it accumulate. Trigger 5:
        // up to 4 newer runs stay (the stall bound 10 leaves room: 10 - 2 - 3 = 5).
        List<DataFile> group =
                group(base(1, 10_000), log(2, 100), log(3, 100), log(4, 100), log(5, 1_000));
        group.add(log(6, 100));
        group.add(log(7, 100));
        group.add(log(8, 100));
        Set<String> inFlight = paths(group.subList(0, 4));
        assertThat(RunPicker.pickNewer(group, inFlight, false, TRIGGER, RATIO, 10)).isNull();

        group.add(log(9, 100));
        Pick pick = RunPicker.pickNewer(group, inFlight, false, TRIGGER, RATIO, 10);
        // 5 newer runs, keep 4: the 2 newest (200), then by size ratio the next two of 100;
        // 400 * 1.01 < 1,000 stops.
        assertThat(pick.full()).isFalse();
        assertThat(pick.reason()).isEqualTo(Reason.NEWER_THAN_IN_FLIGHT);
        assertThat(sequences(pick)).containsExactly(6L, 7L, 8L, 9L);
    }

    @Test
    void aroundFilesInFlightNearTheStallBoundFewerNewerRunsStay() {
        // 7 runs after the base in flight, stall bound 10: 10 - 2 - 7 = 1, raised to 2 runs kept.
        List<DataFile> group = group(base(1, 10_000));
        for (int s = 2; s <= 8; s++) {
            group.add(log(s, 100));
        }
        Set<String> inFlight = paths(group);
        group.add(log(9, 100));
        group.add(log(10, 100));
        assertThat(RunPicker.pickNewer(group, inFlight, false, TRIGGER, RATIO, 10)).isNull();
        group.add(log(11, 100));
        Pick pick = RunPicker.pickNewer(group, inFlight, false, TRIGGER, RATIO, 10);
        assertThat(sequences(pick)).containsExactly(9L, 10L, 11L);

        // Trigger 2 keeps 1 newer run: any 2 are merged.
        List<DataFile> small = group(log(1, 100), log(2, 100), log(3, 100), log(4, 100));
        Pick two = RunPicker.pickNewer(small, paths(small.subList(0, 2)), false, 2, RATIO, 3);
        assertThat(sequences(two)).containsExactly(3L, 4L);
    }

    @Test
    void aGroupWithoutFilesInFlightIsNotPickedAround() {
        List<DataFile> group = group(base(1, 10_000), log(2, 100), log(3, 100));
        assertThat(RunPicker.pickNewer(group, Set.of("elsewhere"), false, 2, RATIO, 10)).isNull();
    }

    @Test
    void newestRunsOnlyNeverTakeTheBaseHoweverLargeTheChange() {
        // Deltas of 2,000 % of the base, which pick() rewrites whole: only the runs after it.
        List<DataFile> group =
                group(base(1, 100), log(2, 500), log(3, 500), log(4, 500), log(5, 500));
        assertThat(RunPicker.pickNewer(group, Set.of(), true, TRIGGER, RATIO, 10)).isNull();
        group.add(log(6, 100));
        Pick pick = RunPicker.pickNewer(group, Set.of(), true, TRIGGER, RATIO, 10);
        assertThat(pick.full()).isFalse();
        // 5 runs after the base, keep 4: the newest 2 (600), then 500s by size ratio.
        assertThat(sequences(pick)).containsExactly(2L, 3L, 4L, 5L, 6L);

        // Without a base the oldest log stays too.
        List<DataFile> logs = group(log(1, 100));
        for (int s = 2; s <= 5; s++) {
            logs.add(log(s, 100));
        }
        assertThat(RunPicker.pickNewer(logs, Set.of(), true, TRIGGER, RATIO, 10)).isNull();
        logs.add(log(6, 100));
        assertThat(sequences(RunPicker.pickNewer(logs, Set.of(), true, TRIGGER, RATIO, 10)))
                .containsExactly(2L, 3L, 4L, 5L, 6L);
    }

    @Test
    void runsAreInReadOrder() {
        DataFile base = base(5, 100);
        DataFile log = log(5, 10);
        DataFile older = log(3, 10);
        assertThat(RunPicker.runs(List.of(log, base, older)))
                .containsExactly(List.of(older), List.of(base), List.of(log));
    }

    private static List<Long> sequences(Pick pick) {
        return pick.files().stream().map(DataFile::sequence).toList();
    }

    private static Set<String> paths(List<DataFile> files) {
        Set<String> paths = new HashSet<>();
        files.forEach(f -> paths.add(f.path()));
        return paths;
    }

    private static List<DataFile> group(DataFile... files) {
        return new ArrayList<>(List.of(files));
    }

    private DataFile base(long sequence, long records) {
        return file(FileKind.BASE, sequence, records);
    }

    private DataFile log(long sequence, long records) {
        return file(FileKind.LOG, sequence, records);
    }

    private DataFile file(FileKind kind, long sequence, long records) {
        String name = (kind == FileKind.BASE ? "base-" : "log-") + (++counter);
        return new DataFile(
                "bucket-0/" + name,
                kind,
                Partition.of(),
                0,
                records,
                records * 20,
                sequence,
                0,
                List.of("1"),
                List.of("9"),
                null);
    }
}
