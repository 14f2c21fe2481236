package io.weir.commit;

import io.weir.exceptions.CorruptFileException;
import io.weir.io.LocalFileIO;
import io.weir.testing.MetadataText;
import io.weir.testing.TestDataFiles;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Broken metadata files fail loading with an error naming the file; nothing is skipped. */
class CorruptMetadataTest {
    @TempDir Path dir;

    private final LocalFileIO io = new LocalFileIO();
    private String location;
    private Path commit3;

    @BeforeEach
    void setUp() {
        location = dir.resolve("table").toString();
        FileCommitLog log =
                FileCommitLog.create(
                        io,
                        location,
                        TestDataFiles.metadata(Map.of("metadata.checkpoint-interval", "4")));
        for (int i = 0; i < 6; i++) {
            log.commit(CommitRequest.append(List.of(TestDataFiles.log("d", 0))));
        }
        commit3 = dir.resolve("table/_weir/commits/00000000000000000003.json");
    }

    private void assertStateFailsNaming(Path file, long commitId, String problem) {
        // Fresh instances, so that nothing is cached: loading replays 5 and 6 on checkpoint 4,
        // time travel to 3 replays 1 to 3.
        String path = file.toString();
        assertThatThrownBy(() -> FileCommitLog.load(io, location).state(commitId))
                .isInstanceOfSatisfying(
                        CorruptFileException.class, e -> assertThat(e.path()).isEqualTo(path))
                .hasMessageStartingWith("Corrupt file " + path)
                .hasMessageContaining(problem);
    }

    @Test
    void garbageCommit() throws Exception {
        Files.writeString(commit3, "this is not json");
        assertStateFailsNaming(commit3, 3, "malformed JSON");
    }

    @Test
    void truncatedCommit() throws Exception {
        String json = Files.readString(commit3);
        Files.writeString(commit3, json.substring(0, json.length() - 20));
        assertStateFailsNaming(commit3, 3, "checksum mismatch");
        Files.writeString(
                commit3, MetadataText.withoutChecksum(json).substring(0, json.length() - 60));
        assertStateFailsNaming(commit3, 3, "malformed JSON: Unexpected end-of-input");
    }

    @Test
    void unknownFormatVersion() throws Exception {
        Files.writeString(
                commit3,
                unchecked(commit3).replace("\"format-version\" : 1", "\"format-version\" : 2"));
        assertStateFailsNaming(commit3, 3, "unsupported format-version 2");
    }

    @Test
    void missingField() throws Exception {
        Files.writeString(commit3, unchecked(commit3).replace("\"path\"", "\"location\""));
        assertStateFailsNaming(commit3, 3, "field 'added[0].path' is missing");
    }

    @Test
    void commitFileWithAnotherId() throws Exception {
        Files.writeString(
                commit3, unchecked(commit3).replace("\"commit-id\" : 3", "\"commit-id\" : 2"));
        assertStateFailsNaming(commit3, 3, "field 'commit-id' is 2, but the file name says 3");
    }

    @Test
    void deletedCommitInTheMiddle() throws Exception {
        Files.delete(commit3);
        assertStateFailsNaming(commit3, 3, "missing, but table " + location + " has commit 3");
        // Loading the latest state starts at checkpoint 4 and does not need commit 3.
        assertThat(FileCommitLog.load(io, location).current().commitId()).isEqualTo(6);
    }

    @Test
    void deletedCommitAfterTheCheckpoint() throws Exception {
        Path commit5 = dir.resolve("table/_weir/commits/00000000000000000005.json");
        Files.delete(commit5);
        // The table loads; its latest state names the missing file, states before it read.
        FileCommitLog loaded = FileCommitLog.load(io, location);
        assertThatThrownBy(loaded::current)
                .isInstanceOf(CorruptFileException.class)
                .hasMessageStartingWith(
                        "Corrupt file "
                                + commit5
                                + ": missing, but table "
                                + location
                                + " has commit 6 and every commit before it must exist. Older"
                                + " snapshots can still be read. Repair the table by rolling back");
        assertThat(loaded.state(4).commitId()).isEqualTo(4);
    }

    @Test
    void commitThatRemovesAFileThatIsNotLive() throws Exception {
        Path commit5 = dir.resolve("table/_weir/commits/00000000000000000005.json");
        Files.writeString(
                commit5,
                unchecked(commit5)
                        .replace("\"removed\" : [ ]", "\"removed\" : [ \"ghost.wlog\" ]"));
        assertStateFailsNaming(commit5, 6, "it removes ghost.wlog, which is not live");
    }

    @Test
    void corruptCheckpointIsSkipped() throws Exception {
        FileCommitLog healthy = FileCommitLog.load(io, location);
        Path checkpoint = dir.resolve("table/_weir/checkpoints/00000000000000000004.json");
        Files.writeString(checkpoint, "{\"format-version\" : 1}");
        // Loading replays commits 1..6 instead: the same state.
        assertThat(FileCommitLog.load(io, location).current()).isEqualTo(healthy.current());
    }

    @Test
    void corruptSchema() throws Exception {
        Path schema = dir.resolve("table/_weir/schemas/0.json");
        Files.writeString(schema, unchecked(schema).replace("\"fields\"", "\"columns\""));
        assertThatThrownBy(() -> FileCommitLog.load(io, location))
                .isInstanceOf(CorruptFileException.class)
                .hasMessage("Corrupt file " + schema + ": field 'schema.fields' is missing");
    }

    /** The file's text without its checksum, so that edits test what the parser says. */
    private static String unchecked(Path file) throws Exception {
        return MetadataText.withoutChecksum(Files.readString(file));
    }

    /** Replaces the first {@code from} after {@code after} by {@code to}: one changed byte. */
    private static void flip(Path file, String after, char from, char to) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.US_ASCII);
        int at = text.indexOf(from, text.indexOf(after) + after.length());
        assertThat(text.indexOf(after)).isPositive();
        bytes[at] = (byte) to;
        Files.write(file, bytes);
    }

    @Test
    void flippedByteInACommitValueIsAChecksumMismatch() throws Exception {
        String before = Files.readString(commit3);
        flip(commit3, "\"record-count\" : ", '1', '7');
        assertThat(MetadataText.withoutChecksum(Files.readString(commit3)))
                .as("still valid JSON, a different record count")
                .isEqualTo(
                        MetadataText.withoutChecksum(before)
                                .replace("\"record-count\" : 1", "\"record-count\" : 7"));
        String stated = before.substring(25, 33);
        assertThatThrownBy(() -> FileCommitLog.load(io, location).state(3))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageStartingWith(
                        "Corrupt file "
                                + commit3
                                + " at offset 25: checksum mismatch: the file says crc32c:"
                                + stated
                                + ", its bytes from offset 34 on give crc32c:");
    }

    @Test
    void flippedByteInADataFilePathOfACommit() throws Exception {
        flip(commit3, "\"path\" : \"", 'd', 'e');
        assertStateFailsNaming(commit3, 3, "checksum mismatch: the file says crc32c:");
    }

    @Test
    void flippedByteInACheckpointIsDetectedAndTheCheckpointSkipped() throws Exception {
        FileCommitLog healthy = FileCommitLog.load(io, location);
        Path checkpoint = dir.resolve("table/_weir/checkpoints/00000000000000000004.json");
        flip(checkpoint, "\"last-sequence\" : ", '4', '9');
        String path = checkpoint.toString();
        assertThatThrownBy(() -> new MetadataFiles(io, location).readCheckpoint(4))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageStartingWith(
                        "Corrupt file "
                                + path
                                + " at offset 25: checksum mismatch: the file says crc32c:");
        // Loading replays commits 1..6 instead of reading the damaged state: the same state.
        assertThat(FileCommitLog.load(io, location).current()).isEqualTo(healthy.current());
    }

    @Test
    void flippedByteInASchemaFile() throws Exception {
        Path schema = dir.resolve("table/_weir/schemas/0.json");
        flip(schema, "\"metadata.checkpoint-interval\" : \"", '4', '3');
        assertThatThrownBy(() -> FileCommitLog.load(io, location))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageStartingWith(
                        "Corrupt file "
                                + schema
                                + " at offset 25: checksum mismatch: the file says crc32c:");
    }

    @Test
    void filesWithoutAChecksumStillRead() throws Exception {
        FileCommitLog healthy = FileCommitLog.load(io, location);
        try (var files = Files.walk(dir.resolve("table/_weir"))) {
            for (Path p : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                Files.writeString(p, unchecked(p));
            }
        }
        FileCommitLog old = FileCommitLog.load(io, location);
        assertThat(old.current()).isEqualTo(healthy.current());
        assertThat(old.state(3)).isEqualTo(healthy.state(3));
    }
}
