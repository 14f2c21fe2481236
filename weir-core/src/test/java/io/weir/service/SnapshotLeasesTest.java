package io.weir.service;

import io.weir.DataFile;
import io.weir.ExpireSnapshotsResult;
import io.weir.SnapshotLease;
import io.weir.Table;
import io.weir.Tables;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;
import io.weir.io.LocalFileIO;
import io.weir.testing.FaultyFileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.ShmTempDirFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reader leases protect snapshots from expiry, end when not renewed, and win every race. */
class SnapshotLeasesTest {
    private static final Map<String, String> OPTIONS =
            Map.of(
                    "bucket", "2",
                    "snapshot.num-retained.min", "1",
                    "snapshot.time-retained", "0 ms");

    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    private final ManualClock clock = new ManualClock(1_714_550_400_000L);
    private final Random random = new Random(5);

    @Test
    void aGarbageLeaseFileIsIgnoredAndDeletedOnceOld() throws Exception {
        String location = dir.resolve("t").toString();
        ModelTable model = ModelTable.create(new LocalFileIO(), location, OPTIONS, clock);
        Table table = model.table;
        for (int i = 0; i < 6; i++) {
            model.append(random, 10);
        }
        SnapshotLease lease = table.leases().acquire("reader-1", 3, Duration.ofMinutes(10));
        Path garbage = dir.resolve("t/_weir/consumers/broken.json");
        Files.writeString(garbage, "{\"format-version\" : 1, \"consumer-id\" : ");
        Files.setLastModifiedTime(
                garbage, java.nio.file.attribute.FileTime.fromMillis(clock.millis()));

        // It stops nothing: the valid lease is honoured, the damaged one protects nothing.
        assertThat(table.leases().list()).containsExactly(lease);
        ExpireSnapshotsResult first = table.expireSnapshots().commit();
        assertThat(first.earliestRetained()).isEqualTo(3);
        assertThat(first.deletedMetadataFiles()).doesNotContain(garbage.toString());
        assertThat(garbage).exists();

        // Deleted once older than orphan.older-than (1 d), as an ended lease.
        clock.advance(Duration.ofDays(1).plusMinutes(1));
        ExpireSnapshotsResult later = table.expireSnapshots().commit();
        assertThat(later.earliestRetained()).isEqualTo(6);
        assertThat(later.deletedMetadataFiles()).contains(garbage.toString());
        assertThat(garbage).doesNotExist();
    }

    @Test
    void aLeaseKeepsItsSnapshotsUntilItEnds() {
        String location = dir.resolve("t").toString();
        ModelTable model = ModelTable.create(new LocalFileIO(), location, OPTIONS, clock);
        Table table = model.table;
        for (int i = 0; i < 6; i++) {
            model.append(random, 10);
        }
        SnapshotLease lease = table.leases().acquire("reader-1", 3, Duration.ofMinutes(10));
        assertThat(lease.expiresMillis()).isEqualTo(clock.millis() + 600_000);
        assertThat(table.leases().list()).containsExactly(lease);

        assertThat(table.expireSnapshots().commit().earliestRetained()).isEqualTo(3);
        model.append(random, 10);
        assertThat(table.expireSnapshots().commit().earliestRetained()).isEqualTo(3);
        assertThat(ModelTable.read(table, 3)).isEqualTo(model.expected(3));

        // Renewing moves the lease on; the older snapshots go.
        clock.advance(Duration.ofMinutes(5));
        table.leases().acquire("reader-1", 5, Duration.ofMinutes(10));
        assertThat(table.expireSnapshots().commit().earliestRetained()).isEqualTo(5);

        // A lease not renewed in time protects nothing.
        clock.advance(Duration.ofMinutes(11));
        assertThat(table.expireSnapshots().commit().earliestRetained()).isEqualTo(7);
        assertThatThrownBy(() -> table.leases().acquire("reader-1", 5, Duration.ofMinutes(1)))
                .isInstanceOf(SnapshotExpiredException.class)
                .hasMessageContaining("earliest retained commit is 7");
        assertThat(table.leases().list()).as("a failed lease is removed").isEmpty();

        // An ended lease file is removed once it ended longer ago than orphan.older-than.
        table.leases().acquire("reader-2", 7, Duration.ofMinutes(1));
        clock.advance(Duration.ofHours(2));
        ExpireSnapshotsResult kept = table.expireSnapshots().commit();
        assertThat(kept.deletedMetadataFiles()).isEmpty();
        assertThat(table.leases().list()).hasSize(1);
        clock.advance(Duration.ofDays(1));
        ExpireSnapshotsResult removed = table.expireSnapshots().commit();
        assertThat(removed.deletedMetadataFiles())
                .containsExactly(location + "/_weir/consumers/reader-2.json");
        assertThat(table.leases().list()).isEmpty();

        table.leases().acquire("reader-3", 7, Duration.ofMinutes(1));
        table.leases().release("reader-3");
        table.leases().release("reader-3");
        assertThat(table.leases().list()).isEmpty();
    }

    @Test
    void invalidLeasesAreRejected() {
        Table table =
                ModelTable.create(new LocalFileIO(), dir.resolve("t").toString(), OPTIONS, clock)
                        .table;
        table.newAppend().commit();
        assertThatThrownBy(() -> table.leases().acquire("r", 2, Duration.ofMinutes(1)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("the latest commit is 1");
        assertThatThrownBy(() -> table.leases().acquire("a/b", 1, Duration.ofMinutes(1)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Invalid consumer id 'a/b'");
        assertThatThrownBy(() -> table.leases().acquire("r", 1, Duration.ZERO))
                .isInstanceOf(ValidationException.class);
        assertThatThrownBy(() -> table.leases().release("../x"))
                .isInstanceOf(ValidationException.class);
        assertThat(table.leases().list()).isEmpty();
    }

    /**
     * A reader leases a snapshot after the expiry read the leases but before it recorded the new
     * earliest retained commit: the reader's check passes, so the expiry must see the lease when it
     * reads the leases again, and keep the snapshot's files.
     */
    @Test
    void aReaderLeasingWhileExpiryRunsKeepsItsFiles() throws Exception {
        String location = dir.resolve("t").toString();
        ModelTable model = ModelTable.create(new LocalFileIO(), location, OPTIONS, clock);
        for (int i = 0; i < 8; i++) {
            if (i == 4) {
                model.compact(random);
            } else {
                model.append(random, 10);
            }
        }
        Table reader = Tables.load(new LocalFileIO(), location, clock);
        List<DataFile> leasedFiles = reader.snapshot(2).files();
        AtomicBoolean raced = new AtomicBoolean();
        FaultyFileIO io =
                new FaultyFileIO()
                        .beforeWrite(
                                path -> {
                                    if (path.endsWith("/_weir/expired.json")
                                            && raced.compareAndSet(false, true)) {
                                        reader.leases()
                                                .acquire("late-reader", 2, Duration.ofHours(1));
                                    }
                                });
        Table expiring = Tables.load(io, location, clock);
        ExpireSnapshotsResult result = expiring.expireSnapshots().commit();
        assertThat(raced).isTrue();
        assertThat(result.earliestRetained()).isEqualTo(8);
        assertThat(result.filesKeptFrom()).isEqualTo(2);
        for (DataFile f : leasedFiles) {
            assertThat(Path.of(location, f.path())).exists();
        }
        // The reader learns that its snapshot expired when it asks for it again; never a missing
        // file.
        assertThatThrownBy(() -> reader.snapshot(2)).isInstanceOf(SnapshotExpiredException.class);

        reader.leases().release("late-reader");
        ExpireSnapshotsResult next = expiring.expireSnapshots().commit();
        assertThat(next.filesKeptFrom()).isEqualTo(8);
        assertThat(SnapshotExpiryTest.dataFiles(location))
                .containsExactlyInAnyOrderElementsOf(
                        expiring.snapshot(8).files().stream()
                                .map(f -> location + "/" + f.path())
                                .toList());
        assertThat(SnapshotExpiryTest.ids(location, "commits")).containsExactly(8L);
        assertThat(
                        Files.exists(
                                Path.of(
                                        location,
                                        "_weir",
                                        "checkpoints",
                                        "00000000000000000008.json")))
                .isTrue();
    }
}
