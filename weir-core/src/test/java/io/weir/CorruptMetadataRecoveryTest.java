package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.exceptions.CorruptFileException;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each kind of metadata file, truncated or overwritten with garbage, in a table of 7 commits
 * (checkpoints 3 and 6): the table either loads from the last good state, or fails with a {@link
 * CorruptFileException} naming the file (docs/table-services.md, "Damaged metadata").
 */
class CorruptMetadataRecoveryTest {
    private static final RowType TYPE =
            RowType.of("id", DataTypes.BIGINT(), "v", DataTypes.STRING());

    enum Damage {
        TRUNCATED,
        GARBAGE
    }

    @TempDir Path dir;
    private String location;

    private void createTable() {
        location = dir.resolve("t").toString();
        Table table =
                Tables.create(
                        location,
                        new Schema(TYPE, List.of("id"), List.of()),
                        Map.of("bucket", "1", "metadata.checkpoint-interval", "3"));
        for (long i = 1; i <= 7; i++) {
            try (TableWrite write = table.newWrite().create()) {
                write.write(BinaryRowWriter.toRow(TYPE, i, "v" + i));
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
        }
    }

    private Path damage(String relative, Damage damage) throws Exception {
        Path file = dir.resolve("t/_weir/" + relative);
        byte[] bytes = Files.readAllBytes(file);
        if (damage == Damage.TRUNCATED) {
            Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        } else {
            Files.write(file, new byte[] {(byte) 0xff, 0x00, '{', 'x', (byte) 0x93, '\n'});
        }
        return file;
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void newestCommitFile(Damage d) throws Exception {
        createTable();
        Path file = damage("commits/00000000000000000007.json", d);
        Table t = Tables.load(location); // loads
        assertFailsNaming(() -> t.currentSnapshot(), file);
        assertThat(rows(t, 6)).hasSize(6); // older snapshots read
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void olderCommitFileCoveredByACheckpoint(Damage d) throws Exception {
        createTable();
        Path file = damage("commits/00000000000000000002.json", d);
        Table t = Tables.load(location); // the latest state starts at checkpoint 6
        assertThat(rows(t, -1)).hasSize(7);
        assertThat(rows(t, 4)).hasSize(4); // checkpoint 3 + commit 4
        assertFailsNaming(() -> t.snapshot(2), file); // needs commit 2
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void latestCheckpointFallsBackToAnOlderOne(Damage d) throws Exception {
        createTable();
        damage("checkpoints/00000000000000000006.json", d);
        Table t = Tables.load(location); // checkpoint 3 and commits 4..7
        assertThat(t.currentSnapshot().id()).isEqualTo(7);
        assertThat(rows(t, -1)).hasSize(7);
        assertThat(rows(t, 6)).hasSize(6);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void everyCheckpointDamagedReplaysTheCommits(Damage d) throws Exception {
        createTable();
        damage("checkpoints/00000000000000000006.json", d);
        damage("checkpoints/00000000000000000003.json", d);
        Table t = Tables.load(location); // commits 1..7
        assertThat(rows(t, -1)).hasSize(7);
        assertThat(rows(t, 3)).hasSize(3);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void latestHintIsIgnored(Damage d) throws Exception {
        createTable();
        Path hint = dir.resolve("t/_weir/LATEST");
        Files.writeString(hint, "7\n", StandardCharsets.UTF_8);
        if (d == Damage.TRUNCATED) {
            Files.writeString(hint, "", StandardCharsets.UTF_8); // half of "7\n" is "7": take none
        } else {
            damage("LATEST", d);
        }
        Table t = Tables.load(location); // the commits are listed and probed
        assertThat(t.currentSnapshot().id()).isEqualTo(7);
        assertThat(rows(t, -1)).hasSize(7);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void schemaFileFailsLoadingNamingIt(Damage d) throws Exception {
        createTable();
        Path file = damage("schemas/0.json", d);
        assertFailsNaming(() -> Tables.load(location), file);
    }

    /**
     * Every prefix of each kind of metadata file (the newest commit, the latest checkpoint, the
     * hint, the schema): the table either reads exactly its rows at the latest snapshot and at
     * snapshot 5, or fails with a {@link CorruptFileException} naming that file. A truncation never
     * parses to another valid document.
     */
    @org.junit.jupiter.api.Test
    void everyTruncationLoadsTheLastGoodStateOrNamesTheFile() throws Exception {
        createTable();
        for (String relative :
                List.of(
                        "commits/00000000000000000007.json",
                        "checkpoints/00000000000000000006.json",
                        "LATEST",
                        "schemas/0.json")) {
            Path file = dir.resolve("t/_weir/" + relative);
            byte[] original = Files.readAllBytes(file);
            for (int length = 0;
                    length < original.length;
                    length += step(length, original.length)) {
                Files.write(file, java.util.Arrays.copyOf(original, length));
                String what = relative + " truncated to " + length + " bytes";
                for (long snapshot : new long[] {-1, 5}) {
                    try {
                        Table t = Tables.load(location);
                        assertThat(rows(t, snapshot))
                                .as(what)
                                .hasSize(snapshot < 0 ? 7 : (int) snapshot);
                    } catch (CorruptFileException e) {
                        assertThat(e.path()).as(what).isEqualTo(file.toString());
                        assertThat(e.getMessage()).as(what).startsWith("Corrupt file " + file);
                    }
                }
            }
            Files.write(file, original);
        }
    }

    /**
     * A flipped bit in each kind of metadata file: the table either reads exactly its rows at the
     * latest snapshot and at snapshot 5, or fails with a {@link CorruptFileException} naming the
     * file; a damaged commit or schema file is never read (the checksum). Every byte of the
     * checksum member (the first 40), every 23rd after it.
     */
    @org.junit.jupiter.api.Test
    void everyFlippedBitLoadsTheLastGoodStateOrNamesTheFile() throws Exception {
        createTable();
        for (String relative :
                List.of(
                        "commits/00000000000000000007.json",
                        "checkpoints/00000000000000000006.json",
                        "schemas/0.json")) {
            Path file = dir.resolve("t/_weir/" + relative);
            byte[] original = Files.readAllBytes(file);
            for (int at = 0; at < original.length; at += at < 40 ? 1 : 23) {
                byte[] bad = original.clone();
                bad[at] ^= (byte) (1 << (at % 8));
                Files.write(file, bad);
                String what = relative + " with bit " + at % 8 + " of byte " + at + " flipped";
                for (long snapshot : new long[] {-1, 5}) {
                    try {
                        Table t = Tables.load(location);
                        assertThat(rows(t, snapshot))
                                .as(what)
                                .hasSize(snapshot < 0 ? 7 : (int) snapshot);
                        assertThat(relative.startsWith("checkpoints/") || snapshot == 5)
                                .as(what + " read without an error")
                                .isTrue();
                    } catch (CorruptFileException e) {
                        assertThat(e.path()).as(what).isEqualTo(file.toString());
                        assertThat(e.getMessage()).as(what).startsWith("Corrupt file " + file);
                    }
                }
            }
            Files.write(file, original);
        }
    }

    /** Every length near the start and the end of a file, every 64th in between. */
    private static int step(int length, int total) {
        return length < 16 || total - length <= 17 ? 1 : 64;
    }

    private static void assertFailsNaming(
            org.assertj.core.api.ThrowableAssert.ThrowingCallable call, Path file) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(
                        CorruptFileException.class,
                        e -> assertThat(e.path()).isEqualTo(file.toString()))
                .hasMessageStartingWith("Corrupt file " + file);
    }

    private static List<Object> rows(Table t, long snapshot) {
        TableScan scan = snapshot < 0 ? t.newScan() : t.newScan().useSnapshot(snapshot);
        return new ArrayList<>(Rows.readAll(scan.rows(), TYPE, false));
    }
}
