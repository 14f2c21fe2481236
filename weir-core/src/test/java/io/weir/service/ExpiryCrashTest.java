package io.weir.service;

import io.weir.ExpireSnapshotsResult;
import io.weir.Table;
import io.weir.Tables;
import io.weir.io.LocalFileIO;
import io.weir.testing.FaultyFileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.ShmTempDirFactory;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An expiry killed after any of its steps (a crash injected at the k-th delete, or at the
 * checkpoint or marker write) leaves a table that loads and whose retained snapshots all read as
 * the model says; the next run finishes the work and leaves exactly what an uninterrupted run does.
 */
class ExpiryCrashTest {
    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    private final ManualClock clock = new ManualClock(1_714_550_400_000L);
    private ModelTable model;
    private Path original;

    @BeforeEach
    void buildHistory() {
        original = dir.resolve("original");
        model =
                ModelTable.create(
                        new LocalFileIO(),
                        original.toString(),
                        Map.of(
                                "bucket", "2",
                                "metadata.checkpoint-interval", "4",
                                "snapshot.num-retained.min", "3",
                                "snapshot.time-retained", "10 min"),
                        clock);
        Random random = new Random(3);
        for (int i = 0; i < 30; i++) {
            clock.advance(Duration.ofMinutes(1));
            if (i % 6 == 5) {
                model.compact(random);
            } else if (i == 13) {
                model.overwrite(random);
            } else {
                model.append(random, 8);
            }
            if (i == 15) {
                // An earlier expiry, so that the one under test continues where it stopped.
                assertThat(model.table.expireSnapshots().commit().deletedDataFiles()).isNotEmpty();
            }
        }
        clock.advance(Duration.ofMinutes(3));
    }

    @Test
    void crashAtEveryDeleteThenRunAgain() throws Exception {
        Path reference = copy("reference");
        FaultyFileIO counting = new FaultyFileIO();
        ExpireSnapshotsResult clean = expire(Tables.load(counting, reference.toString(), clock));
        int deletes = counting.deletes();
        assertThat(clean.deletedDataFiles()).isNotEmpty();
        assertThat(clean.deletedMetadataFiles()).isNotEmpty();
        assertThat(deletes)
                .isEqualTo(clean.deletedDataFiles().size() + clean.deletedMetadataFiles().size());
        List<String> expected = files(reference);

        for (int k = 1; k <= deletes; k++) {
            Path copy = copy("crash-" + k);
            FaultyFileIO io = new FaultyFileIO().failOnDelete(k);
            Table dying = Tables.load(io, copy.toString(), clock);
            assertThatThrownBy(() -> expire(dying)).isInstanceOf(FaultyFileIO.Crash.class);
            checkRetainedSnapshots(copy, "after a crash at delete " + k);
            expire(Tables.load(new LocalFileIO(), copy.toString(), clock));
            assertThat(files(copy)).as("crash at delete %d, then rerun", k).isEqualTo(expected);
            checkRetainedSnapshots(copy, "after the rerun");
        }
    }

    @Test
    void crashAtTheCheckpointOrMarkerWriteThenRunAgain() throws Exception {
        Path reference = copy("reference");
        expire(Tables.load(new LocalFileIO(), reference.toString(), clock));
        List<String> expected = files(reference);
        long before = Tables.load(original.toString()).earliestRetainedCommit();
        for (int k = 1; k <= 2; k++) {
            Path copy = copy("crash-write-" + k);
            FaultyFileIO io = new FaultyFileIO().failOnWrite(k, p -> p.contains("/_weir/"));
            Table dying = Tables.load(io, copy.toString(), clock);
            assertThatThrownBy(() -> expire(dying)).isInstanceOf(FaultyFileIO.Crash.class);
            Table reloaded = Tables.load(new LocalFileIO(), copy.toString(), clock);
            assertThat(reloaded.earliestRetainedCommit()).isEqualTo(before);
            checkRetainedSnapshots(copy, "after a crash at write " + k);
            expire(reloaded);
            assertThat(files(copy)).as("crash at write %d, then rerun", k).isEqualTo(expected);
        }
    }

    private static ExpireSnapshotsResult expire(Table table) {
        return table.expireSnapshots().commit();
    }

    /** Loads the table afresh: every snapshot from the earliest retained one reads as modelled. */
    private void checkRetainedSnapshots(Path location, String when) {
        Table table = Tables.load(new LocalFileIO(), location.toString(), clock);
        long latest = table.currentSnapshot().id();
        for (long id = table.earliestRetainedCommit(); id <= latest; id++) {
            assertThat(ModelTable.read(table, id))
                    .as("snapshot %d %s", id, when)
                    .isEqualTo(model.expected(id));
        }
    }

    /** The table's files, relative, without the expiry marker's and hint's content. */
    private static List<String> files(Path location) throws IOException {
        try (Stream<Path> files = Files.walk(location)) {
            return files.filter(Files::isRegularFile)
                    .map(p -> location.relativize(p).toString())
                    .sorted()
                    .toList();
        }
    }

    private Path copy(String name) throws IOException {
        Path target = dir.resolve(name);
        try (Stream<Path> files = Files.walk(original)) {
            for (Path p : files.toList()) {
                Path to = target.resolve(original.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return target;
    }
}
