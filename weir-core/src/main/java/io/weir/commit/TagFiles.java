package io.weir.commit;

import io.weir.Tag;
import io.weir.exceptions.CorruptFileException;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;
import io.weir.util.Json;
import io.weir.util.JsonFields;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The tags of a table, one file per tag: {@code _weir/tags/<name>.json}, a checkpoint of the tagged
 * snapshot (§6 of docs/format.md) with two more fields, {@code tag-name} and {@code created-millis}
 * (§6.8). A tag file is created once (create-if-absent) and never changed.
 */
public final class TagFiles {
    static final String TAG_NAME = "tag-name";
    static final String CREATED_MILLIS = "created-millis";

    private final MetadataFiles files;

    /** A tag and its snapshot. */
    public record Entry(Tag tag, TableState state) {}

    public TagFiles(FileIO io, String location) {
        this.files = new MetadataFiles(io, location);
    }

    public String path(String name) {
        return files.paths().tag(name);
    }

    /** Writes a tag; false if a tag of that name exists. */
    public boolean create(Tag tag, TableState state) {
        String json =
                CheckpointParser.toJson(
                        state,
                        gen -> {
                            gen.writeStringField(TAG_NAME, tag.name());
                            gen.writeNumberField(CREATED_MILLIS, tag.createdMillis());
                        });
        try {
            return files.io()
                    .writeIfAbsent(path(tag.name()), json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write tag " + path(tag.name()), e);
        }
    }

    /** Deletes a tag's file, if it exists. */
    public void delete(String name) {
        try {
            files.io().delete(path(name));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete tag " + path(name), e);
        }
    }

    /**
     * A tag; null if there is none of that name.
     *
     * @throws CorruptFileException if its file does not parse
     */
    public Entry read(String name) {
        String path = path(name);
        byte[] bytes = files.read(path);
        return bytes == null ? null : parse(path, new String(bytes, StandardCharsets.UTF_8));
    }

    /**
     * Every tag, by name. A tag file that does not parse fails the listing ({@link
     * CorruptFileException} naming it): the files it protects are unknown, so expiry and orphan
     * removal must not run past it.
     */
    public List<Entry> list() {
        List<Entry> tags = new ArrayList<>();
        for (FileStatus s : files.list(files.paths().tagsDir())) {
            if (MetadataPaths.isTemporary(s.path()) || !s.path().endsWith(".json")) {
                continue;
            }
            byte[] bytes = files.read(s.path());
            if (bytes != null) {
                tags.add(parse(s.path(), new String(bytes, StandardCharsets.UTF_8)));
            }
        }
        tags.sort(Comparator.comparing(e -> e.tag().name()));
        return tags;
    }

    private static Entry parse(String path, String json) {
        TableState state = CheckpointParser.fromJson(path, json);
        JsonFields root = Json.parse(path, json);
        String name = root.requiredString(TAG_NAME);
        String fileName = path.substring(path.lastIndexOf('/') + 1);
        if (!fileName.equals(name + ".json")) {
            throw root.invalid(TAG_NAME, "'" + name + "' does not match the file's name");
        }
        try {
            return new Entry(
                    new Tag(name, state.commitId(), root.requiredLong(CREATED_MILLIS)), state);
        } catch (IllegalArgumentException e) {
            throw new CorruptFileException(path, 0, e.getMessage());
        }
    }
}
