package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.exceptions.CorruptFileException;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A damaged or missing newest commit file (docs/table-services.md, "Damaged metadata"): older
 * snapshots stay readable, the latest fails with an error naming the file, nothing is rolled back
 * silently, orphan removal refuses, and {@link Table#rollbackTo} repairs the table with a new
 * commit.
 */
class DamagedMetadataTest {
    private static final RowType TYPE =
            RowType.of("id", DataTypes.BIGINT(), "v", DataTypes.STRING());

    @TempDir Path dir;
    private String location;
    private Table table;
    private Path commit5;

    @BeforeEach
    void createTable() {
        location = dir.resolve("t").toString();
        table =
                Tables.create(
                        location,
                        new Schema(TYPE, List.of("id"), List.of()),
                        Map.of("bucket", "1", "metadata.checkpoint-interval", "3"));
        for (long i = 1; i <= 5; i++) {
            write(i, "v" + i); // commits 1..5; checkpoint 3
        }
        commit5 = dir.resolve("t/_weir/commits/00000000000000000005.json");
    }

    @Test
    void truncatedNewestCommitKeepsOlderSnapshotsReadable() throws Exception {
        String json = Files.readString(commit5);
        Files.writeString(commit5, json.substring(0, json.length() / 2));
        assertOlderSnapshotsReadableAndLatestFails(commit5.toString(), "checksum mismatch");
        // Compaction and cleaning cannot work on an unknown latest state: they fail the same way.
        Table loaded = Tables.load(location);
        assertThatThrownBy(() -> loaded.newCompaction().full().execute())
                .isInstanceOf(CorruptFileException.class);
        assertThatThrownBy(() -> loaded.removeOrphanFiles().olderThan(Long.MAX_VALUE).execute())
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("Orphan removal")
                .hasMessageContaining("nothing was deleted");
        assertThatThrownBy(() -> loaded.expireSnapshots().retainLast(1).commit())
                .isInstanceOf(CorruptFileException.class);
        assertThat(dataFiles()).hasSize(5);
    }

    @Test
    void garbageNewestCommit() throws Exception {
        Files.writeString(commit5, "\u0000\u0001garbage");
        assertOlderSnapshotsReadableAndLatestFails(commit5.toString(), "malformed JSON");
        Tables.load(location).rollbackTo(3);
        assertRepairedAt(6, 3);
    }

    @Test
    void deletedNewestCommitIsAnErrorNotASilentRollback() throws Exception {
        Files.delete(commit5); // the LATEST hint still says 5
        assertOlderSnapshotsReadableAndLatestFails(
                commit5.toString(), "missing, but the LATEST hint");
        Table loaded = Tables.load(location);
        assertThatThrownBy(loaded::currentSnapshot)
                .hasMessageContaining("weir doctor --table " + location);
        // Orphan removal refuses: commit 5's data file is referenced by no commit file now.
        assertThatThrownBy(() -> loaded.removeOrphanFiles().olderThan(Long.MAX_VALUE).execute())
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("nothing was deleted");
        assertThat(dataFiles()).hasSize(5);
    }

    @Test
    void deletedNewestCommitProvenByACheckpointWithoutHint() throws Exception {
        write(6L, "v6"); // checkpoint 6
        Path commit6 = dir.resolve("t/_weir/commits/00000000000000000006.json");
        Files.delete(commit6);
        Files.delete(dir.resolve("t/_weir/LATEST"));
        assertOlderSnapshotsReadableAndLatestFails(commit6.toString(), "missing, but checkpoint");
    }

    @Test
    void repairedTableWorksForWritesExpiryAndOrphanRemoval() throws Exception {
        Files.writeString(commit5, "{");
        Tables.load(location).rollbackTo(4);
        Table t = Tables.load(location);
        write(t, 7L, "v7"); // commit 7 on top of the rollback
        Table fresh = Tables.load(location);
        assertThat(fresh.currentSnapshot().id()).isEqualTo(7);
        assertThat(read(fresh, -1)).containsExactly("1:v1", "2:v2", "3:v3", "4:v4", "7:v7");
        // Incremental reads across the rollback do not read the damaged commit.
        assertThat(readChanges(fresh, 4, 7)).containsExactly("+I[7, v7]");
        // Once the damaged commit has expired, orphan removal deletes commit 5's data file.
        fresh.expireSnapshots().retainLast(1).expireOlderThan(Long.MAX_VALUE).commit();
        assertThat(Files.exists(commit5)).isFalse();
        fresh.removeOrphanFiles().olderThan(Long.MAX_VALUE).execute();
        assertThat(read(Tables.load(location), -1))
                .containsExactly("1:v1", "2:v2", "3:v3", "4:v4", "7:v7");
        assertThat(dataFiles()).hasSize(5);
    }

    @Test
    void rollbackOfAHealthyTable() {
        assertThat(table.rollbackTo(2).id()).isEqualTo(6);
        assertThat(read(Tables.load(location), -1)).containsExactly("1:v1", "2:v2");
        assertThat(readChanges(Tables.load(location), 4, 6))
                .containsExactly("-D[3, v3]", "-D[4, v4]");
        assertThat(read(Tables.load(location), 5)).hasSize(5); // history stays
    }

    private void assertOlderSnapshotsReadableAndLatestFails(String damaged, String problem) {
        Table loaded = Tables.load(location); // loading works
        assertThatThrownBy(loaded::currentSnapshot)
                .isInstanceOfSatisfying(
                        CorruptFileException.class, e -> assertThat(e.path()).isEqualTo(damaged))
                .hasMessageContaining(problem);
        assertThatThrownBy(() -> loaded.newScan().plan()).isInstanceOf(CorruptFileException.class);
        assertThatThrownBy(() -> Tables.load(location).newAppend().commit())
                .isInstanceOf(CorruptFileException.class);
        // Time travel and incremental reads between intact commits.
        assertThat(read(loaded, 4)).containsExactly("1:v1", "2:v2", "3:v3", "4:v4");
        assertThat(read(loaded, 2)).containsExactly("1:v1", "2:v2");
        assertThat(readChanges(loaded, 2, 4)).containsExactly("+I[3, v3]", "+I[4, v4]");
    }

    private void assertRepairedAt(long rollbackId, long restored) {
        Table t = Tables.load(location);
        assertThat(t.currentSnapshot().id()).isEqualTo(rollbackId);
        List<String> expected = new ArrayList<>();
        for (long i = 1; i <= restored; i++) {
            expected.add(i + ":v" + i);
        }
        assertThat(read(t, -1)).containsExactlyElementsOf(expected);
        assertThat(t.commit(rollbackId).properties())
                .containsEntry("rollback-to", Long.toString(restored));
    }

    private List<Path> dataFiles() throws Exception {
        try (var files = Files.walk(dir.resolve("t/bucket-0"))) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    private void write(long id, String v) {
        write(table, id, v);
    }

    private static void write(Table t, long id, String v) {
        try (TableWrite write = t.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(TYPE, id, v));
            t.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    private static List<String> read(Table t, long snapshot) {
        TableScan scan = snapshot < 0 ? t.newScan() : t.newScan().useSnapshot(snapshot);
        List<String> out = new ArrayList<>();
        for (List<Object> row : Rows.readAll(scan.rows(), TYPE, false)) {
            out.add(row.get(0) + ":" + row.get(1));
        }
        return out;
    }

    private static List<String> readChanges(Table t, long from, long to) {
        List<String> out = new ArrayList<>();
        for (List<Object> row :
                Rows.readAll(t.newIncrementalScan().between(from, to).rows(), TYPE, true)) {
            out.add(row.get(0) + "[" + row.get(1) + ", " + row.get(2) + "]");
        }
        return out;
    }
}
