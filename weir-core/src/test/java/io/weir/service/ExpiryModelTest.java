package io.weir.service;

import io.weir.ExpireSnapshotsResult;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.testing.ManualClock;
import io.weir.testing.ModelSeeds;
import io.weir.testing.Rows;
import io.weir.testing.ShmTempDirFactory;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hours of simulated ingestion in seconds: random appends, compactions and overwrites with snapshot
 * expiry every few commits, checked after every step against an independent model: every retained
 * snapshot reads as the model recorded it, incremental reads from the earliest retained commit
 * equal the model's changes, the earliest retained commit is what the retention rules say, and the
 * files on disk are exactly those of the retained snapshots, so that the table stays small.
 */
class ExpiryModelTest {
    private static final int STEPS = 240;
    private static final int MIN = 3;
    private static final int MAX = 12;
    private static final Duration TIME_RETAINED = Duration.ofMinutes(20);
    private static final int INTERVAL = 4;

    /** Expiry runs after 1 to this many steps. */
    private static final int EXPIRY_EVERY = 5;

    /** Commits retained at most: MAX after an expiry, plus the commits until the next one. */
    private static final int MAX_COMMITS = MAX + EXPIRY_EVERY;

    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    @ParameterizedTest(name = "seed {0}")
    @ModelSeeds({11, 12})
    void longRunningTableStaysSmallAndEveryRetainedSnapshotReads(int seed) throws Exception {
        Random random = new Random(seed);
        ManualClock clock = new ManualClock(1_714_550_400_000L);
        String location = SnapshotExpiryTest.storage().location(dir, "t");
        ModelTable model =
                ModelTable.create(
                        SnapshotExpiryTest.storage().io(),
                        location,
                        Map.of(
                                "bucket",
                                "2",
                                "write-buffer-size",
                                "1 mb",
                                "metadata.checkpoint-interval",
                                String.valueOf(INTERVAL),
                                "snapshot.num-retained.min",
                                String.valueOf(MIN),
                                "snapshot.num-retained.max",
                                String.valueOf(MAX),
                                "snapshot.time-retained",
                                "20 min"),
                        clock);
        Table table = model.table;
        int nextExpiry = 4;
        int expiriesThatDeleted = 0;
        int maxDataFiles = 0;
        int written = 0;
        for (int step = 0; step < STEPS; step++) {
            clock.advance(Duration.ofSeconds(random.nextInt(300)));
            long previous = table.currentSnapshot().id();
            int action = random.nextInt(20);
            if (action < 3) {
                model.compact(random);
            } else if (action == 3) {
                model.overwrite(random);
            } else {
                model.append(random, 1 + random.nextInt(8));
            }
            long latest = table.currentSnapshot().id();
            if (latest > previous) {
                written += table.commit(latest).added().size();
            }
            boolean expiryRan = step >= nextExpiry;
            if (expiryRan) {
                nextExpiry = step + 1 + random.nextInt(EXPIRY_EVERY);
                long expected = expectedEarliest(table, clock.millis());
                ExpireSnapshotsResult result = table.expireSnapshots().commit();
                assertThat(result.earliestRetained()).as("step %d", step).isEqualTo(expected);
                if (!result.deletedDataFiles().isEmpty()) {
                    expiriesThatDeleted++;
                }
            }
            // Only expiry deletes files: reading every retained snapshot after each expiry (and the
            // latest after every step) reads every retained snapshot after every step.
            maxDataFiles = Math.max(maxDataFiles, checkTable(model, location, clock, expiryRan));
        }
        if (ModelSeeds.Provider.named(seed)) {
            assertThat(expiriesThatDeleted).isGreaterThan(10);
        }
        // The live set stays a few files per file group; history adds at most MAX commits' worth.
        // The disk holds exactly the retained snapshots' files (checked after every step): a small,
        // bounded part of everything ever written.
        // (150 holds for the named seeds; a soak's seed may append longer between compactions.)
        assertThat(maxDataFiles).isLessThan(written / 4);
        if (ModelSeeds.Provider.named(seed)) {
            assertThat(maxDataFiles).isLessThan(150);
        }
    }

    /** The retention rules, computed from the commit timestamps alone. */
    private static long expectedEarliest(Table table, long now) {
        long latest = table.currentSnapshot().id();
        long earliest = table.earliestRetainedCommit();
        long superseded = 0;
        for (long id = Math.max(1, earliest); id <= latest; id++) {
            if (table.commit(id).timestampMillis() <= now - TIME_RETAINED.toMillis()) {
                superseded = id;
            }
        }
        long retain = Math.min(Math.max(superseded, latest - MAX + 1), latest - MIN + 1);
        return Math.max(retain, earliest);
    }

    /**
     * Checks files on disk, metadata and errors, and reads the latest snapshot, or every retained
     * one; returns the number of data files on disk.
     */
    private static int checkTable(
            ModelTable model, String location, ManualClock clock, boolean readAll)
            throws Exception {
        Table table = model.table;
        long latest = table.currentSnapshot().id();
        long earliest = table.earliestRetainedCommit();
        Set<String> needed = new TreeSet<>();
        for (long id = earliest; id <= latest; id++) {
            Snapshot s = table.snapshot(id);
            s.files().forEach(f -> needed.add(location + "/" + f.path()));
            if (readAll || id == latest) {
                assertThat(ModelTable.read(table, id))
                        .as("snapshot %d (retained %d to %d)", id, earliest, latest)
                        .isEqualTo(model.expected(id));
            }
        }
        List<String> onDisk = SnapshotExpiryTest.dataFiles(location);
        assertThat(onDisk).as("data files on disk").containsExactlyElementsOf(needed);

        List<Long> commits = SnapshotExpiryTest.ids(location, "commits");
        assertThat(commits)
                .containsExactlyElementsOf(SnapshotExpiryTest.range(Math.max(1, earliest), latest));
        List<Long> checkpoints = SnapshotExpiryTest.ids(location, "checkpoints");
        assertThat(checkpoints).allMatch(id -> id >= earliest);
        assertThat(checkpoints.size()).isLessThanOrEqualTo(MAX_COMMITS / INTERVAL + 2);
        long metadataFiles =
                ModelTable.filesUnder(SnapshotExpiryTest.storage().io(), location + "/_weir")
                        .size();
        // commits, checkpoints, schema, hint, marker
        assertThat(metadataFiles).isLessThanOrEqualTo(MAX_COMMITS + MAX_COMMITS / INTERVAL + 2 + 3);

        if (earliest > 0) {
            assertThatThrownBy(() -> table.snapshot(earliest - 1))
                    .isInstanceOf(SnapshotExpiredException.class);
            assertThatThrownBy(
                            () -> table.newIncrementalScan().between(earliest - 1, latest).plan())
                    .isInstanceOf(SnapshotExpiredException.class);
        }
        assertThat(table.snapshotAsOf(clock.millis()).id()).isEqualTo(latest);
        if (!readAll) {
            return onDisk.size();
        }
        List<List<Object>> changes =
                Rows.readAll(
                        table.newIncrementalScan().between(earliest, latest).rows(),
                        ModelTable.TYPE,
                        true);
        assertThat(sorted(changes))
                .as("changes (%d, %d]", earliest, latest)
                .isEqualTo(sorted(diff(model.expected(earliest), model.expected(latest))));
        return onDisk.size();
    }

    /** The net changes between two states of the model, as an incremental read reports them. */
    static List<List<Object>> diff(List<List<Object>> before, List<List<Object>> after) {
        Map<List<Object>, List<Object>> old = new HashMap<>();
        before.forEach(r -> old.put(r.subList(0, 2), r));
        Map<List<Object>, List<Object>> now = new HashMap<>();
        after.forEach(r -> now.put(r.subList(0, 2), r));
        List<List<Object>> changes = new ArrayList<>();
        old.forEach(
                (key, row) -> {
                    List<Object> next = now.get(key);
                    if (next == null) {
                        changes.add(kind("-D", row));
                    } else if (!next.equals(row)) {
                        changes.add(kind("-U", row));
                        changes.add(kind("+U", next));
                    }
                });
        now.forEach(
                (key, row) -> {
                    if (!old.containsKey(key)) {
                        changes.add(kind("+I", row));
                    }
                });
        return changes;
    }

    private static List<Object> kind(String kind, List<Object> row) {
        List<Object> out = new ArrayList<>();
        out.add(kind);
        out.addAll(row);
        return out;
    }

    static List<String> sorted(List<List<Object>> rows) {
        return rows.stream().map(Objects::toString).sorted().toList();
    }
}
