package io.weir.service;

import io.weir.ExpireSnapshotsResult;
import io.weir.Table;
import io.weir.Tables;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;
import io.weir.testing.ManualClock;
import io.weir.testing.ShmTempDirFactory;
import io.weir.testing.TestStorage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What expiry retains and deletes, and how expired snapshots fail. */
class SnapshotExpiryTest {
    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    private final ManualClock clock =
            new ManualClock(Instant.parse("2024-05-01T10:00:00Z").toEpochMilli());

    @Test
    void retentionFollowsCountsAndTheTimeEachSnapshotWasLatest() {
        Table table =
                Tables.create(
                        storage().io(),
                        storage().location(dir, "t"),
                        ModelTable.SCHEMA,
                        Map.of(
                                "snapshot.num-retained.min", "2",
                                "snapshot.num-retained.max", "5",
                                "snapshot.time-retained", "1 h"),
                        clock);
        // (minutes after 10:00 of the commit or -1 for none, earliest retained after expiry)
        long[][] steps = {
            {0, 0}, // commit 1 at 10:00; fewer than min commits
            {20, 0},
            {40, 0},
            {60, 1}, // 11:00: commit 1 was the latest at the cutoff 10:00, snapshot 0 expires
            {80, 2}, // 11:20: cutoff 10:20 is commit 2's time
            {90, 2}, // 6 commits, max 5 retained: 2..6
            {91, 3}, // max again: 3..7
            {180, 7}, // 13:00: cutoff 12:00 saw commit 7; min 2 allows up to 7
            {181, 7}, // cutoff 12:01: still commit 7
            {-1, 8}, // 15:00, no commit: everything before the latest two is old, min keeps 8..9
        };
        long start = clock.millis();
        for (long[] step : steps) {
            if (step[0] >= 0) {
                clock.advance(Duration.ofMillis(start + step[0] * 60_000 - clock.millis()));
                table.newAppend().commit();
            } else {
                clock.advance(Duration.ofMillis(start + 300 * 60_000 - clock.millis()));
            }
            ExpireSnapshotsResult result = table.expireSnapshots().commit();
            assertThat(result.earliestRetained())
                    .as("after the commit at minute %d", step[0])
                    .isEqualTo(step[1]);
            assertThat(table.earliestRetainedCommit()).isEqualTo(step[1]);
        }

        // Explicit bounds override the options; the latest commit always stays.
        assertThat(table.expireSnapshots().retainLast(1).commit().earliestRetained()).isEqualTo(9);
        assertThat(table.expireSnapshots().retainLast(1).expireOlderThan(0).commit())
                .extracting(ExpireSnapshotsResult::earliestRetained)
                .isEqualTo(9L);
    }

    @Test
    void deletesExactlyTheFilesNoRetainedSnapshotNeedsThenTheMetadataBeforeIt() throws Exception {
        String location = storage().location(dir, "t");
        ModelTable model =
                ModelTable.create(
                        storage().io(),
                        location,
                        Map.of("bucket", "2", "metadata.checkpoint-interval", "3"),
                        clock);
        Table table = model.table;
        Random random = new Random(7);
        for (int i = 0; i < 14; i++) {
            clock.advance(Duration.ofMinutes(1));
            if (i % 5 == 4) {
                model.compact(random);
            } else if (i == 7) {
                model.overwrite(random);
            } else {
                model.append(random, 10);
            }
        }
        long latest = table.currentSnapshot().id();
        long retain = latest - 3;
        Set<String> before = new TreeSet<>();
        Set<String> after = new TreeSet<>();
        for (long id = 0; id <= latest; id++) {
            for (var f : table.snapshot(id).files()) {
                (id < retain ? before : after).add(location + "/" + f.path());
            }
        }
        before.removeAll(after);
        assertThat(before).as("the test must expire some files").isNotEmpty();

        List<String> disk = dataFiles(location);
        ExpireSnapshotsResult preview =
                table.expireSnapshots().retainLast(4).expireOlderThan(clock.millis()).apply();
        assertThat(dataFiles(location)).as("a preview deletes nothing").isEqualTo(disk);
        assertThat(
                        table.expireSnapshots()
                                .retainLast(4)
                                .expireOlderThan(clock.millis())
                                .dryRun()
                                .commit())
                .isEqualTo(preview);
        assertThat(dataFiles(location)).isEqualTo(disk);
        assertThat(table.earliestRetainedCommit()).isZero();

        ExpireSnapshotsResult result =
                table.expireSnapshots().retainLast(4).expireOlderThan(clock.millis()).commit();
        assertThat(result.dryRun()).isFalse();
        assertThat(result.earliestRetained()).isEqualTo(retain);
        assertThat(result.filesKeptFrom()).isEqualTo(retain);
        assertThat(result.expiredSnapshots()).isEqualTo(retain);
        assertThat(new TreeSet<>(result.deletedDataFiles())).isEqualTo(before);
        assertThat(result.deletedDataFiles()).isEqualTo(preview.deletedDataFiles());
        assertThat(result.deletedMetadataFiles()).isEqualTo(preview.deletedMetadataFiles());
        assertThat(dataFiles(location)).containsExactlyElementsOf(after);
        assertThat(ids(location, "commits")).containsExactlyElementsOf(range(retain, latest));
        assertThat(ids(location, "checkpoints")).contains(retain).allMatch(id -> id >= retain);

        // Every retained snapshot reads as the model says, also from a freshly loaded table.
        Table reloaded = Tables.load(storage().io(), location, clock);
        for (long id = retain; id <= latest; id++) {
            assertThat(ModelTable.read(reloaded, id)).isEqualTo(model.expected(id));
        }

        // Expired snapshots fail clearly, by id, by time and as the start of an incremental read.
        for (Table t : List.of(table, reloaded)) {
            assertThatThrownBy(() -> t.snapshot(retain - 1))
                    .isInstanceOf(SnapshotExpiredException.class)
                    .hasMessageContaining("has expired")
                    .hasMessageContaining("earliest retained commit is " + retain)
                    .extracting(e -> ((SnapshotExpiredException) e).earliestRetainedCommit())
                    .isEqualTo(retain);
            assertThatThrownBy(() -> t.commit(retain - 1))
                    .isInstanceOf(SnapshotExpiredException.class);
            long retainedAt = t.commit(retain).timestampMillis();
            assertThat(t.snapshotAsOf(retainedAt).id()).isEqualTo(retain);
            assertThatThrownBy(() -> t.snapshotAsOf(retainedAt - 1))
                    .isInstanceOf(SnapshotExpiredException.class)
                    .hasMessageContaining("earliest retained commit " + retain);
            assertThatThrownBy(() -> t.newIncrementalScan().between(retain - 1, latest).plan())
                    .isInstanceOf(SnapshotExpiredException.class);
            assertThat(t.newIncrementalScan().between(retain, latest).plan()).isNotNull();
            assertThatThrownBy(() -> t.snapshot(latest + 1))
                    .isInstanceOf(ValidationException.class)
                    .isNotInstanceOf(SnapshotExpiredException.class);
        }

        // A second run has nothing left to do.
        ExpireSnapshotsResult again =
                table.expireSnapshots().retainLast(4).expireOlderThan(clock.millis()).commit();
        assertThat(again.expiredSnapshots()).isZero();
        assertThat(again.deletedDataFiles()).isEmpty();
        assertThat(again.deletedMetadataFiles()).isEmpty();
    }

    @Test
    void invalidRetentionOptionsAreRejected() {
        assertThatThrownBy(
                        () ->
                                Tables.create(
                                        storage().io(),
                                        storage().location(dir, "t"),
                                        ModelTable.SCHEMA,
                                        Map.of("snapshot.num-retained.max", "3")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'snapshot.num-retained.max' (3) must be at least")
                .hasMessageContaining("'snapshot.num-retained.min' (10)");
        assertThatThrownBy(
                        () ->
                                Tables.create(
                                        storage().io(),
                                        storage().location(dir, "u"),
                                        ModelTable.SCHEMA,
                                        Map.of("orphan.older-than", "10 s")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("orphan.older-than");
        Table table =
                Tables.create(
                        storage().io(), storage().location(dir, "v"), ModelTable.SCHEMA, Map.of());
        assertThatThrownBy(() -> table.expireSnapshots().retainLast(0))
                .isInstanceOf(ValidationException.class);
        assertThat(table.expireSnapshots().commit().expiredSnapshots()).isZero();
    }

    static List<String> dataFiles(String location) {
        return ModelTable.filesUnder(storage().io(), location).stream()
                .filter(p -> !p.startsWith(location + "/_weir/"))
                .toList();
    }

    static List<Long> ids(String location, String directory) throws Exception {
        return storage().io().list(location + "/_weir/" + directory).stream()
                .map(s -> s.path().substring(s.path().lastIndexOf('/') + 1))
                .filter(n -> n.matches("\\d{20}\\.json"))
                .map(n -> Long.parseLong(n.substring(0, 20)))
                .sorted()
                .toList();
    }

    /** Where the tables live: local disk, or the storage named by -Dweir.test.storage. */
    static TestStorage storage() {
        return TestStorage.current();
    }

    static List<Long> range(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long id = from; id <= to; id++) {
            out.add(id);
        }
        return out;
    }
}
