package io.weir.service;

import io.weir.DataFile;
import io.weir.PendingFilesLease;
import io.weir.RemoveOrphanFilesResult;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.WriterLease;
import io.weir.commit.MetadataDiagnosis;
import io.weir.data.BinaryRowWriter;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.ShmTempDirFactory;
import io.weir.testing.TestStorage;
import io.weir.write.PendingFilesLeaseImpl;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Writer leases keep the files of writes not committed yet from orphan removal, even with the least
 * age orphan removal allows and files older than it; once the files are committed, or the lease
 * ended, or for files older than every live lease, orphan removal works as without leases. A lease
 * file that does not parse stops nothing. (Local files: the test sets files' modification times.)
 */
class WriterLeasesTest {
    private static final Duration LEAST = Duration.ofMinutes(1);

    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    private final ManualClock clock = new ManualClock(System.currentTimeMillis());
    private final Random random = new Random(3);
    private final TestStorage storage = TestStorage.current();
    private final FileIO io = storage.io();
    private String location;
    private Table table;
    private ModelTable model;

    @BeforeEach
    void setUp() {
        assumeTrue(storage.isLocal(), "sets modification times of local files");
        location = storage.location(dir, "t");
        model = ModelTable.create(io, location, Map.of("bucket", "2"), clock);
        table = model.table;
        for (int i = 0; i < 3; i++) {
            model.append(random, 10);
        }
    }

    @Test
    void filesOfAWriteNotCommittedYetSurviveTheLeastAgeUntilCommitted() throws Exception {
        List<String> oldOrphans = paths(uncommittedWrite());
        age(oldOrphans, Duration.ofDays(2));

        TableWrite write = table.newWrite().create();
        PendingFilesLease lease =
                new PendingFilesLeaseImpl(table, "job-1.w-0", Duration.ofMinutes(10), clock);
        List<DataFile> inFlight = writeRows(write);
        lease.handedOn(inFlight);
        // A write of another writer, without a lease, that failed after the lease was taken.
        List<String> strays = paths(uncommittedWrite());
        assertThat(table.writerLeases().list())
                .singleElement()
                .extracting(WriterLease::writerId)
                .isEqualTo("job-1.w-0");

        // Five minutes on (the table's clock), every file written above is older than the least
        // age: without the lease all of them would be orphans.
        clock.advance(Duration.ofMinutes(5));
        RemoveOrphanFilesResult clean = table.removeOrphanFiles().olderThan(LEAST).execute();
        assertThat(clean.orphanFiles()).containsExactlyInAnyOrderElementsOf(oldOrphans);
        assertThat(clean.inFlightFiles()).isEqualTo(inFlight.size() + strays.size());
        assertExist(paths(inFlight));
        assertExist(strays);
        assertThat(table.removeOrphanFiles().olderThan(LEAST).dryRun().execute().orphanFiles())
                .isEmpty();

        // The commit lands; at the writer's next hand-over (nothing new), a third of the lease's
        // duration after its last renewal, the lease moves on.
        table.newAppend().addFiles(inFlight).commit();
        long beforeRenewal = clock.millis();
        lease.handedOn(List.of());
        assertThat(table.writerLeases().list().get(0).oldestFileMillis())
                .isGreaterThanOrEqualTo(beforeRenewal);
        // Files older than every live lease are handled as without leases: the strays, two
        // minutes older than the lease's time, go; the committed files stay.
        age(strays, Duration.ofMinutes(2));
        RemoveOrphanFilesResult afterCommit = table.removeOrphanFiles().olderThan(LEAST).execute();
        assertThat(afterCommit.orphanFiles()).containsExactlyInAnyOrderElementsOf(strays);
        assertThat(afterCommit.inFlightFiles()).isZero();
        assertExist(paths(inFlight));
        assertThat(table.currentSnapshot().files().stream().map(DataFile::path))
                .containsAll(inFlight.stream().map(DataFile::path).toList());

        // Every hand-over is committed: closing releases the lease.
        write.close();
        lease.close();
        assertThat(table.writerLeases().list()).isEmpty();
        assertThat(io.exists(location + "/_weir/writers/job-1.w-0.json")).isFalse();
    }

    @Test
    void aLeaseThatIsNotRenewedEndsAndProtectsNothing() throws Exception {
        List<DataFile> inFlight;
        try (TableWrite write = table.newWrite().create()) {
            PendingFilesLease lease =
                    new PendingFilesLeaseImpl(table, "stopped-job", Duration.ofMinutes(10));
            inFlight = writeRows(write);
            lease.handedOn(inFlight);
            // The writer dies: its hand-over is not known committed, so close keeps the lease.
            lease.close();
        }
        assertThat(table.writerLeases().list()).hasSize(1);
        clock.advance(Duration.ofMinutes(9));
        assertThat(table.removeOrphanFiles().olderThan(LEAST).execute().orphanFiles()).isEmpty();

        // Not renewed for its 10 minutes: it ended, and the files are orphans as before.
        clock.advance(Duration.ofMinutes(2));
        assertThat(table.removeOrphanFiles().olderThan(LEAST).execute().orphanFiles())
                .containsExactlyInAnyOrderElementsOf(paths(inFlight));
        assertThat(io.exists(location + "/_weir/writers/stopped-job.json")).isTrue();

        // An ended lease file goes once it ended longer than orphan.older-than (1 day) ago.
        clock.advance(Duration.ofDays(1));
        assertThat(table.removeOrphanFiles().olderThan(LEAST).execute().orphanFiles())
                .containsExactly(location + "/_weir/writers/stopped-job.json");
        assertThat(table.writerLeases().list()).isEmpty();
    }

    @Test
    void aGarbageLeaseDoesNotStopOrphanRemoval() throws Exception {
        String garbage = location + "/_weir/writers/broken.json";
        io.overwrite(
                garbage,
                "{\"format-version\" : 1, \"writer-id\" : ".getBytes(StandardCharsets.UTF_8));
        String noTime = location + "/_weir/writers/no-time.json";
        io.overwrite(
                noTime,
                "{\"format-version\" : 1, \"writer-id\" : \"no-time\", \"expires-millis\" : 1}"
                        .getBytes(StandardCharsets.UTF_8));
        List<String> orphans = paths(uncommittedWrite());
        age(orphans, Duration.ofDays(2));

        assertThat(table.writerLeases().list()).isEmpty();
        assertThat(table.removeOrphanFiles().olderThan(LEAST).execute().orphanFiles())
                .containsExactlyInAnyOrderElementsOf(orphans);
        assertThat(io.exists(garbage)).isTrue();
        // weir doctor lists it.
        assertThat(MetadataDiagnosis.run(io, location).problems())
                .anySatisfy(
                        p ->
                                assertThat(p)
                                        .startsWith("Corrupt file " + garbage)
                                        .contains("not a writer lease (ignored: it protects"));

        // It goes as an ended lease does, once last modified longer than orphan.older-than ago.
        age(List.of(garbage, noTime), Duration.ofDays(2));
        assertThat(table.removeOrphanFiles().olderThan(LEAST).execute().orphanFiles())
                .containsExactlyInAnyOrder(garbage, noTime);
    }

    @Test
    void invalidLeasesAreRefusedNamingTheTable() {
        assertThatThrownBy(() -> table.writerLeases().hold("a/b", 0, Duration.ofMinutes(1)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining(location)
                .hasMessageContaining("Invalid writer id 'a/b'");
        assertThatThrownBy(() -> table.writerLeases().hold("w", 0, Duration.ZERO))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Invalid lease duration PT0S for writer w of table "
                                + location
                                + ": must be positive");
        assertThatThrownBy(() -> table.writerLeases().hold("w", -1, Duration.ofMinutes(1)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Invalid oldest file time -1 of writer lease w");
        WriterLease held = table.writerLeases().hold("w", 5, Duration.ofMinutes(1));
        assertThat(held).isEqualTo(new WriterLease("w", 5, clock.millis() + 60_000));
        assertThat(table.writerLeases().list()).containsExactly(held);
        table.writerLeases().release("w");
        table.writerLeases().release("w");
        assertThat(table.writerLeases().list()).isEmpty();
    }

    private List<DataFile> writeRows(TableWrite write) {
        for (int i = 0; i < 20; i++) {
            write.write(
                    BinaryRowWriter.toRow(
                            ModelTable.TYPE, random.nextInt(40), "2024-05-02", 5_000_000L + i));
        }
        List<DataFile> files = write.prepareCommit();
        assertThat(files).isNotEmpty();
        return files;
    }

    private List<DataFile> uncommittedWrite() {
        try (TableWrite write = table.newWrite().create()) {
            return writeRows(write);
        }
    }

    private List<String> paths(List<DataFile> files) {
        List<String> out = new ArrayList<>();
        files.forEach(f -> out.add(location + "/" + f.path()));
        return out;
    }

    private void assertExist(List<String> paths) throws Exception {
        for (String p : paths) {
            assertThat(io.exists(p)).as(p).isTrue();
        }
    }

    /** Sets the files' modification times this long before now (the real clock). */
    private static void age(List<String> paths, Duration age) throws Exception {
        FileTime time = FileTime.fromMillis(System.currentTimeMillis() - age.toMillis());
        for (String p : paths) {
            Files.setLastModifiedTime(Path.of(p.replaceFirst("^file:", "")), time);
        }
    }
}
