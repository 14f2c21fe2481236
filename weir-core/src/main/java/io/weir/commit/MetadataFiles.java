package io.weir.commit;

import io.weir.Commit;
import io.weir.TableMetadata;
import io.weir.exceptions.CorruptFileException;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Reads and writes a table's metadata files through a {@link FileIO}: I/O errors become {@link
 * UncheckedIOException}s naming the path, a missing file is {@code null}, and a file whose content
 * does not match its name is a {@link CorruptFileException}.
 */
final class MetadataFiles {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataFiles.class);

    private final FileIO io;
    private final MetadataPaths paths;

    MetadataFiles(FileIO io, String location) {
        this.io = io;
        this.paths = new MetadataPaths(location);
    }

    FileIO io() {
        return io;
    }

    MetadataPaths paths() {
        return paths;
    }

    String location() {
        return paths.location();
    }

    /** The schema file, or null if it does not exist. */
    TableMetadata readSchema(int schemaId) {
        String path = paths.schema(schemaId);
        String json = readString(path);
        if (json == null) {
            return null;
        }
        TableMetadata metadata = TableMetadataParser.fromJson(path, json);
        if (metadata.schemaId() != schemaId) {
            throw mismatch(path, TableMetadataParser.SCHEMA_ID, metadata.schemaId(), schemaId);
        }
        return metadata;
    }

    /** The commit file, or null if it does not exist. */
    Commit readCommit(long commitId) {
        String path = paths.commit(commitId);
        String json = readString(path);
        if (json == null) {
            return null;
        }
        Commit commit = CommitParser.fromJson(path, json);
        if (commit.id() != commitId) {
            throw mismatch(path, CommitParser.COMMIT_ID, commit.id(), commitId);
        }
        return commit;
    }

    /** The checkpoint file, or null if it does not exist. */
    TableState readCheckpoint(long commitId) {
        String path = paths.checkpoint(commitId);
        String json = readString(path);
        if (json == null) {
            return null;
        }
        TableState state = CheckpointParser.fromJson(path, json);
        if (state.commitId() != commitId) {
            throw mismatch(path, CheckpointParser.COMMIT_ID, state.commitId(), commitId);
        }
        return state;
    }

    /**
     * The commit id in the LATEST hint, or -1 if it is missing or unreadable (it is only a hint).
     */
    long readHint() {
        String path = paths.latestHint();
        try {
            String text = readString(path);
            if (text == null) {
                return -1;
            }
            // Decimal digits and a newline: anything else is damage, not a commit id.
            if (!text.matches("[0-9]{1,19}\n?")) {
                throw new NumberFormatException("not a commit id: " + abbreviate(text));
            }
            return Long.parseLong(text.trim());
        } catch (NumberFormatException | UncheckedIOException e) {
            LOG.warn("Ignoring unreadable commit hint {}: {}", path, e.toString());
            return -1;
        }
    }

    /** The earliest retained commit recorded by expiry, or 0 if nothing has expired. */
    long readEarliestRetained() {
        String path = paths.expiredMarker();
        String json = readString(path);
        return json == null ? 0 : ExpiryMarkerParser.fromJson(path, json);
    }

    /** Replaces the expiry marker; readers see the old or the new one. */
    void writeEarliestRetained(long commitId, long timestampMillis) {
        String path = paths.expiredMarker();
        byte[] json =
                ExpiryMarkerParser.toJson(commitId, timestampMillis)
                        .getBytes(StandardCharsets.UTF_8);
        try {
            io.overwrite(path, json);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + path, e);
        }
    }

    /** Writes the checkpoint of a state if none exists; returns whether this call wrote it. */
    boolean writeCheckpoint(TableState state) throws IOException {
        return io.writeIfAbsent(
                paths.checkpoint(state.commitId()),
                CheckpointParser.toJson(state).getBytes(StandardCharsets.UTF_8));
    }

    /** Overwrites the LATEST hint (docs/format.md §6.4); only after its commit landed. */
    void writeHint(long commitId) throws IOException {
        io.overwrite(paths.latestHint(), (commitId + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes a schema version's file if it does not exist yet; returns whether this call wrote it.
     *
     * @throws UncheckedIOException naming the file and the table if the write fails
     */
    boolean writeSchema(TableMetadata metadata) {
        String path = paths.schema(metadata.schemaId());
        try {
            return io.writeIfAbsent(
                    path, TableMetadataParser.toJson(metadata).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot write " + path + " of table " + paths.location(), e);
        }
    }

    /** The ids of the schema files there are. */
    List<Integer> listedSchemaIds() {
        List<Integer> ids = new ArrayList<>();
        for (FileStatus s : list(paths.schemasDir())) {
            String name = s.path().substring(s.path().lastIndexOf('/') + 1);
            if (name.matches("[0-9]{1,9}\\.json")) {
                ids.add(Integer.parseInt(name.substring(0, name.length() - 5)));
            }
        }
        return ids;
    }

    /** The ids of the commit or checkpoint files in a directory, ascending. */
    List<Long> listedIds(String directory) {
        List<Long> ids = new ArrayList<>();
        for (FileStatus s : list(directory)) {
            long id = MetadataPaths.idOf(s.path());
            if (id >= 0) {
                ids.add(id);
            }
        }
        Collections.sort(ids);
        return ids;
    }

    /**
     * The checkpoint and commit files before {@code commitId}, checkpoints first, then commits,
     * each from the oldest.
     */
    List<String> metadataFilesBefore(long commitId) {
        List<String> out = new ArrayList<>();
        for (long id : listedIds(paths.checkpointsDir())) {
            if (id < commitId) {
                out.add(paths.checkpoint(id));
            }
        }
        for (long id : listedIds(paths.commitsDir())) {
            if (id < commitId) {
                out.add(paths.commit(id));
            }
        }
        return out;
    }

    /**
     * Temporary files of metadata writes modified before {@code olderThanMillis}, in every metadata
     * directory but {@code schemas/}.
     */
    List<FileStatus> temporaryFiles(long olderThanMillis) {
        List<FileStatus> out = new ArrayList<>();
        for (String dir :
                List.of(
                        paths.metadataDir(),
                        paths.commitsDir(),
                        paths.checkpointsDir(),
                        paths.consumersDir(),
                        paths.writersDir(),
                        paths.tagsDir())) {
            for (FileStatus s : list(dir)) {
                if (MetadataPaths.isTemporary(s.path())
                        && s.modificationTimeMillis() < olderThanMillis) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** The files directly under a directory (none if it does not exist). */
    List<FileStatus> list(String directory) {
        try {
            return io.list(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + directory, e);
        }
    }

    /**
     * The greatest id of the commit or checkpoint files in a directory that is at most {@code max}.
     */
    long maxListedId(String directory, long max) {
        long best = 0;
        try {
            for (FileStatus s : io.list(directory)) {
                long id = MetadataPaths.idOf(s.path());
                if (id > best && id <= max) {
                    best = id;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + directory, e);
        }
        return best;
    }

    boolean exists(String path) {
        try {
            return io.exists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot check whether " + path + " exists", e);
        }
    }

    /** The file's bytes, or null if it does not exist. */
    byte[] read(String path) {
        try {
            return io.readAllBytes(path);
        } catch (FileNotFoundException | NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + path, e);
        }
    }

    private static String abbreviate(String text) {
        String t = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        return "'" + t.replaceAll("[^\\x20-\\x7e]", "?") + "'";
    }

    private String readString(String path) {
        byte[] bytes = read(path);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static CorruptFileException mismatch(
            String path, String field, long found, long expected) {
        return new CorruptFileException(
                path, "field '" + field + "' is " + found + ", but the file name says " + expected);
    }
}
