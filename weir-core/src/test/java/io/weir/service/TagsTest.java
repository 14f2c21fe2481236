package io.weir.service;

import io.weir.DataFile;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.Tag;
import io.weir.commit.MetadataDiagnosis;
import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;
import io.weir.io.LocalFileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.ShmTempDirFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tags keep their snapshots readable through snapshot expiry and orphan removal, and deleting one
 * deletes exactly the files that only it needed.
 */
class TagsTest {
    private static final Map<String, String> OPTIONS =
            Map.of(
                    "bucket", "2",
                    "snapshot.num-retained.min", "1",
                    "snapshot.time-retained", "0 ms");

    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    private final ManualClock clock = new ManualClock(1_714_550_400_000L);
    private final Random random = new Random(11);

    @Test
    void aTagKeepsItsSnapshotThroughExpiryAndOrphanRemoval() {
        String location = dir.resolve("t").toString();
        ModelTable model = ModelTable.create(new LocalFileIO(), location, OPTIONS, clock);
        Table table = model.table;
        for (int i = 0; i < 3; i++) {
            model.append(random, 20);
        }
        clock.advance(Duration.ofSeconds(1));
        Tag tag = table.tags().create("v3", 3);
        assertThat(tag).isEqualTo(new Tag("v3", 3, clock.millis()));
        List<DataFile> tagged = table.snapshot(3).files();
        model.compact(random);
        model.overwrite(random);
        model.append(random, 20);
        model.compact(random);
        long latest = table.currentSnapshot().id();

        assertThat(table.expireSnapshots().commit().earliestRetained()).isEqualTo(latest);
        // Snapshot 3 is read from its tag; its neighbours have expired.
        assertThat(ModelTable.read(table, 3)).isEqualTo(model.expected(3));
        assertThat(table.tags().snapshot("v3").files()).isEqualTo(tagged);
        assertThatThrownBy(() -> table.snapshot(2)).isInstanceOf(SnapshotExpiredException.class);
        assertThatThrownBy(() -> table.snapshot(4)).isInstanceOf(SnapshotExpiredException.class);

        // Orphan removal counts every tagged file as referenced, however old.
        assertThat(table.removeOrphanFiles().olderThan(Long.MAX_VALUE).execute().orphanFiles())
                .isEmpty();
        for (DataFile f : tagged) {
            assertThat(Path.of(location, f.path())).exists();
        }
        assertThat(ModelTable.read(table, 3)).isEqualTo(model.expected(3));
        assertThat(ModelTable.read(table, latest)).isEqualTo(model.expected(latest));
    }

    @Test
    void deletingATagDeletesTheFilesOnlyItNeeded() {
        String location = dir.resolve("t").toString();
        ModelTable model = ModelTable.create(new LocalFileIO(), location, OPTIONS, clock);
        Table table = model.table;
        model.append(random, 20);
        model.append(random, 20);
        table.tags().create("a", 2);
        assertThat(table.newCompaction().full().execute().commitId()).isEqualTo(3);
        table.tags().create("b", 3);
        model.append(random, 20);
        table.leases().acquire("reader", 4, Duration.ofHours(1));
        model.overwrite(random);
        model.compact(random);
        long latest = table.currentSnapshot().id();
        assertThat(table.expireSnapshots().commit().earliestRetained()).isEqualTo(4);

        // The model of what must stay: every file of a retained snapshot, and tag b's.
        Set<String> needed = new HashSet<>();
        for (long id = 4; id <= latest; id++) {
            table.snapshot(id).files().forEach(f -> needed.add(f.path()));
        }
        table.tags().snapshot("b").files().forEach(f -> needed.add(f.path()));
        List<String> expected = new ArrayList<>();
        for (DataFile f : table.tags().snapshot("a").files()) {
            if (!needed.contains(f.path())) {
                expected.add(location + "/" + f.path());
            }
        }
        assertThat(expected).isNotEmpty();

        assertThat(table.tags().delete("a")).containsExactlyInAnyOrderElementsOf(expected);
        for (String path : expected) {
            assertThat(Path.of(path)).doesNotExist();
        }
        assertThat(table.tags().list()).extracting(Tag::name).containsExactly("b");
        assertThatThrownBy(() -> table.snapshot(2)).isInstanceOf(SnapshotExpiredException.class);
        // The compaction changed no row.
        assertThat(ModelTable.read(table, 3)).isEqualTo(model.expected(2));
        for (long id = 4; id <= latest; id++) {
            assertThat(ModelTable.read(table, id)).isEqualTo(model.expected(id));
        }
        // Nothing is left that no metadata references.
        assertThat(table.removeOrphanFiles().olderThan(Long.MAX_VALUE).execute().orphanFiles())
                .isEmpty();
    }

    @Test
    void invalidTagsAreRejected() throws Exception {
        String location = dir.resolve("t").toString();
        ModelTable model = ModelTable.create(new LocalFileIO(), location, OPTIONS, clock);
        Table table = model.table;
        model.append(random, 5);
        model.append(random, 5);
        table.tags().create("v1", 1);
        assertThatThrownBy(() -> table.tags().create("v1", 2))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Cannot create tag 'v1' of table "
                                + location
                                + ": it exists already (on commit 1); delete it first");
        assertThatThrownBy(() -> table.tags().create("a/b", 1))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Invalid tag name 'a/b'");
        assertThatThrownBy(() -> table.tags().create("v9", 9))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("valid commit ids are 0 to 2");
        assertThatThrownBy(() -> table.tags().get("nope"))
                .isInstanceOf(ValidationException.class)
                .hasMessage("Cannot find tag 'nope' of table " + location + "; its tags are [v1]");
        assertThatThrownBy(() -> table.tags().delete("nope"))
                .isInstanceOf(ValidationException.class);

        model.append(random, 5);
        table.expireSnapshots().commit();
        assertThatThrownBy(() -> table.tags().create("v2", 2))
                .isInstanceOf(SnapshotExpiredException.class)
                .hasMessage(
                        "Cannot tag commit 2 of table "
                                + location
                                + " as 'v2': it has expired (the earliest retained commit is 3)");
        assertThat(table.tags().list()).extracting(Tag::name).containsExactly("v1");
        assertThat(Files.list(Path.of(location, "_weir/tags")).map(p -> p.getFileName().toString()))
                .containsExactly("v1.json");
        Snapshot v1 = table.snapshot(1);
        assertThat(v1.id()).isEqualTo(1);
        assertThat(ModelTable.read(table, 1)).isEqualTo(model.expected(1));
    }

    /** A damaged tag file stops expiry and orphan removal: the files it keeps are unknown. */
    @Test
    void aDamagedTagStopsTheServicesThatWouldDeleteItsFiles() throws Exception {
        String location = dir.resolve("t").toString();
        ModelTable model = ModelTable.create(new LocalFileIO(), location, OPTIONS, clock);
        Table table = model.table;
        model.append(random, 20);
        model.append(random, 20);
        assertThat(table.newCompaction().full().execute()).isNotNull();
        List<String> before = dataFiles(location);
        Path damaged = Path.of(location, "_weir/tags/broken.json");
        Files.createDirectories(damaged.getParent());
        Files.writeString(damaged, "{\"format-version\" : 1, \"commit-id\" : ");

        assertThatThrownBy(() -> table.expireSnapshots().commit())
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(damaged.toString());
        assertThatThrownBy(() -> table.removeOrphanFiles().olderThan(Long.MAX_VALUE).execute())
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(damaged.toString());
        assertThat(MetadataDiagnosis.run(new LocalFileIO(), location).problems())
                .anySatisfy(
                        p -> assertThat(p).contains(damaged.toString()).contains("damaged tag"));
        // The expiry stopped before deleting a data file.
        assertThat(dataFiles(location)).isEqualTo(before);
        assertThat(ModelTable.read(table, 3)).isEqualTo(model.expected(2));
    }

    private static List<String> dataFiles(String location) {
        return ModelTable.filesUnder(new LocalFileIO(), location).stream()
                .filter(p -> !p.contains("/_weir/"))
                .toList();
    }
}
