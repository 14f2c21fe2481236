package io.weir.service;

import io.weir.Compaction;
import io.weir.DataFile;
import io.weir.RemoveOrphanFilesResult;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.io.FileIO;
import io.weir.testing.FaultyFileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.ShmTempDirFactory;
import io.weir.testing.TestStorage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Orphan removal deletes exactly the unreferenced files older than the cutoff: files of a writer
 * that never committed, outputs of a compaction that died while committing, temporary files of
 * interrupted metadata writes. Nothing a snapshot needs, nothing young, nothing in the schemas.
 */
class OrphanFilesTest {
    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    private final ManualClock clock = new ManualClock(System.currentTimeMillis());
    private final Random random = new Random(9);
    private final TestStorage storage = TestStorage.current();
    private final FileIO io = storage.io();

    @Test
    void removesExactlyTheOldOrphans() throws Exception {
        String location = storage.location(dir, "t");
        ModelTable model = ModelTable.create(io, location, Map.of("bucket", "2"), clock);
        Table table = model.table;
        for (int i = 0; i < 10; i++) {
            if (i == 4 || i == 8) {
                model.compact(random);
            } else {
                model.append(random, 10);
            }
        }
        Set<String> orphans = new TreeSet<>();
        // A writer that prepared files but never committed them (e.g. a failed Flink attempt).
        orphans.addAll(uncommittedWrite(table));
        // A compaction that died while committing: its new base files stay behind.
        model.append(random, 10);
        FaultyFileIO dying = new FaultyFileIO(io).failOnWrite(1, p -> p.contains("/commits/"));
        assertThatThrownBy(
                        () -> Tables.load(dying, location, clock).newCompaction().full().execute())
                .isInstanceOf(FaultyFileIO.Crash.class);
        orphans.addAll(newFilesSince(location, model));
        assertThat(orphans)
                .anyMatch(p -> p.endsWith(".parquet"))
                .anyMatch(p -> p.endsWith(".wlog"));
        // Temporary files of metadata writes whose writer died.
        orphans.add(touch(location + "/_weir/commits/.00000000000000000099.json.1a2b.tmp"));
        orphans.add(touch(location + "/_weir/.LATEST.3c4d.tmp"));
        String schemaTemp = touch(location + "/_weir/schemas/.1.json.5e6f.tmp");

        // Everything so far is two days old; then come the files of writes in flight.
        ageEverything(location, Duration.ofDays(2));
        List<String> young = uncommittedWrite(table);
        String youngTemp = touch(location + "/_weir/checkpoints/.00000000000000000012.json.7a.tmp");

        List<String> before = ModelTable.filesUnder(io, location);
        RemoveOrphanFilesResult preview = table.removeOrphanFiles().dryRun().execute();
        assertThat(preview.dryRun()).isTrue();
        assertThat(new TreeSet<>(preview.orphanFiles())).isEqualTo(orphans);
        assertThat(ModelTable.filesUnder(io, location)).isEqualTo(before);

        RemoveOrphanFilesResult result = table.removeOrphanFiles().execute();
        assertThat(new TreeSet<>(result.orphanFiles())).isEqualTo(orphans);
        assertThat(result.orphanBytes()).isPositive();
        List<String> expected = new ArrayList<>(before);
        expected.removeAll(orphans);
        assertThat(ModelTable.filesUnder(io, location)).isEqualTo(expected);
        assertThat(expected).containsAll(young).contains(schemaTemp, youngTemp);
        for (long id = 0; id <= table.currentSnapshot().id(); id++) {
            assertThat(ModelTable.read(table, id)).isEqualTo(model.expected(id));
        }
        assertThat(table.removeOrphanFiles().execute().orphanFiles()).isEmpty();

        // The compaction that died left its writer lease (docs/table-services.md, "Compaction's
        // writer lease"): until it ends, 1 h after it was taken, it keeps unreferenced files
        // newer than the compaction's start, whatever the cutoff.
        assertThat(table.writerLeases().list())
                .singleElement()
                .satisfies(l -> assertThat(l.writerId()).startsWith("compaction-"));
        if (storage.isLocal()) {
            // On S3 and HDFS the files were aged by moving the test clock a day ahead (file times
            // are the server's), which also ended the lease.
            assertThat(
                            table.removeOrphanFiles()
                                    .olderThan(System.currentTimeMillis() + 60_000)
                                    .dryRun()
                                    .execute()
                                    .orphanFiles())
                    .isEmpty();
        }
        clock.advance(Compaction.LEASE_TTL.plusMinutes(1));

        // After an expiry, what remains referenced still covers every retained snapshot: with
        // every file old enough, only the young writer's files are orphans.
        table.expireSnapshots().retainLast(3).expireOlderThan(clock.millis()).commit();
        RemoveOrphanFilesResult all =
                table.removeOrphanFiles().olderThan(System.currentTimeMillis() + 60_000).execute();
        // The dead compaction's ended lease file may go with them (on S3 and HDFS its time is
        // a day before the test clock).
        assertThat(all.orphanFiles().stream().filter(p -> !p.contains("/_weir/writers/")))
                .containsExactlyInAnyOrderElementsOf(withTemp(young, youngTemp));
        long latest = table.currentSnapshot().id();
        for (long id = table.earliestRetainedCommit(); id <= latest; id++) {
            assertThat(ModelTable.read(table, id)).isEqualTo(model.expected(id));
        }
    }

    /** Files of a write that was prepared but never committed; returns their full paths. */
    private List<String> uncommittedWrite(Table table) {
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < 20; i++) {
                write.write(
                        BinaryRowWriter.toRow(
                                ModelTable.TYPE, random.nextInt(40), "2024-05-01", 1_000_000L + i));
            }
            List<String> paths = new ArrayList<>();
            for (DataFile f : write.prepareCommit()) {
                paths.add(table.location() + "/" + f.path());
            }
            return paths;
        }
    }

    /** Data files on disk that no snapshot of the model's table holds. */
    private static List<String> newFilesSince(String location, ModelTable model) {
        Set<String> known = new TreeSet<>();
        Table table = model.table;
        for (long id = 0; id <= table.currentSnapshot().id(); id++) {
            table.snapshot(id).files().forEach(f -> known.add(location + "/" + f.path()));
        }
        return SnapshotExpiryTest.dataFiles(location).stream()
                .filter(p -> !known.contains(p))
                .toList();
    }

    private static List<String> withTemp(List<String> files, String temp) {
        List<String> out = new ArrayList<>(files);
        out.add(temp);
        return out;
    }

    private String touch(String path) throws IOException {
        io.overwrite(path, "partial".getBytes(StandardCharsets.UTF_8));
        return path;
    }

    /**
     * Makes every file so far older than the orphan cutoff, and every file written later younger.
     * Locally by setting the files' times back; elsewhere (an object's time cannot be set, and S3
     * keeps whole seconds) by waiting for the next whole second and moving the table's clock so
     * that the cutoff falls on it.
     */
    private void ageEverything(String location, Duration age) throws Exception {
        if (storage.isLocal()) {
            FileTime old = FileTime.fromMillis(clock.millis() - age.toMillis());
            try (Stream<Path> files = Files.walk(Path.of(location))) {
                for (Path p : files.filter(Files::isRegularFile).toList()) {
                    Files.setLastModifiedTime(p, old);
                }
            }
            return;
        }
        long boundary = (System.currentTimeMillis() / 1000 + 1) * 1000;
        Thread.sleep(boundary - System.currentTimeMillis() + 50);
        Duration olderThan = Tables.load(io, location).options().orphanOlderThan();
        clock.advance(Duration.ofMillis(boundary + olderThan.toMillis() - clock.millis()));
    }
}
