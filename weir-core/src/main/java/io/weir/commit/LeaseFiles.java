package io.weir.commit;

import io.weir.SnapshotLease;
import io.weir.WriterLease;
import io.weir.exceptions.CorruptFileException;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The leases of one kind in a table, one file per holder (docs/format.md §6.7): readers' leases
 * {@code _weir/consumers/<consumer id>.json} ({@link #readers}) and writers' leases {@code
 * _weir/writers/<writer id>.json} ({@link #writers}). A lease is replaced whole, so a reader sees
 * the old or the new one; a file that does not parse is skipped with a warning.
 *
 * @param <T> the lease record
 */
public final class LeaseFiles<T> {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseFiles.class);
    private final MetadataFiles files;
    private final String dir;
    private final String kind;
    private final Function<T, String> id;
    private final ToLongFunction<T> expires;
    private final Function<T, String> toJson;
    private final BiFunction<String, String, T> fromJson;

    private LeaseFiles(
            FileIO io,
            String location,
            Function<MetadataPaths, String> dir,
            String kind,
            Function<T, String> id,
            ToLongFunction<T> expires,
            Function<T, String> toJson,
            BiFunction<String, String, T> fromJson) {
        this.files = new MetadataFiles(io, location);
        this.dir = dir.apply(files.paths());
        this.kind = kind;
        this.id = id;
        this.expires = expires;
        this.toJson = toJson;
        this.fromJson = fromJson;
    }

    /** Readers' leases on snapshots, protecting them from expiry. */
    public static LeaseFiles<SnapshotLease> readers(FileIO io, String location) {
        return new LeaseFiles<>(
                io,
                location,
                MetadataPaths::consumersDir,
                "reader lease",
                SnapshotLease::consumerId,
                SnapshotLease::expiresMillis,
                LeaseParser::toJson,
                LeaseParser::fromJson);
    }

    /** Writers' leases on files not committed yet, protecting them from orphan removal. */
    public static LeaseFiles<WriterLease> writers(FileIO io, String location) {
        return new LeaseFiles<>(
                io,
                location,
                MetadataPaths::writersDir,
                "writer lease",
                WriterLease::writerId,
                WriterLease::expiresMillis,
                WriterLeaseParser::toJson,
                WriterLeaseParser::fromJson);
    }

    /** The path of a holder's lease file. */
    public String path(String holderId) {
        return dir + "/" + holderId + ".json";
    }

    /** Writes (or replaces) a lease. */
    public void write(T lease) {
        String path = path(id.apply(lease));
        try {
            files.io().overwrite(path, toJson.apply(lease).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot write "
                            + kind
                            + " "
                            + path
                            + " of table "
                            + files.paths().location()
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** Deletes a holder's lease, if it has one. */
    public void delete(String holderId) {
        String path = path(holderId);
        try {
            files.io().delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot delete "
                            + kind
                            + " "
                            + path
                            + " of table "
                            + files.paths().location()
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Every lease that parses. A lease file that does not parse (damaged: leases are replaced
     * atomically, so no holder leaves a partial one) is skipped with a warning and protects
     * nothing: one garbage file must not stop every expiry or orphan removal. {@link #damaged}
     * lists them.
     */
    public List<T> list() {
        List<T> leases = new ArrayList<>();
        for (FileStatus s : leaseFiles()) {
            try {
                T lease = read(s);
                if (lease != null) {
                    leases.add(lease);
                }
            } catch (CorruptFileException e) {
                LOG.warn("Ignoring a damaged {}; it protects nothing: {}", kind, e.getMessage());
            }
        }
        return leases;
    }

    /**
     * The paths of lease files that ended before {@code cutoffMillis}, and of lease files that do
     * not parse and were last modified before it (the latest they could have been renewed). The
     * services delete them with a cutoff of {@code orphan.older-than} ago: a holder renewing such a
     * lease could lose the renewal to the deletion, and one that waited that long has lost its
     * protection anyway.
     */
    public List<String> endedBefore(long cutoffMillis) {
        List<String> paths = new ArrayList<>();
        for (FileStatus s : leaseFiles()) {
            try {
                T lease = read(s);
                if (lease != null && expires.applyAsLong(lease) < cutoffMillis) {
                    paths.add(s.path());
                }
            } catch (CorruptFileException e) {
                if (s.modificationTimeMillis() < cutoffMillis) {
                    paths.add(s.path());
                }
            }
        }
        return paths;
    }

    /** The lease files that do not parse, with their modification times. */
    public List<FileStatus> damaged() {
        List<FileStatus> out = new ArrayList<>();
        for (FileStatus s : leaseFiles()) {
            try {
                read(s);
            } catch (CorruptFileException e) {
                out.add(s);
            }
        }
        return out;
    }

    private List<FileStatus> leaseFiles() {
        List<FileStatus> out = new ArrayList<>();
        for (FileStatus s : files.list(dir)) {
            if (!MetadataPaths.isTemporary(s.path()) && s.path().endsWith(".json")) {
                out.add(s);
            }
        }
        return out;
    }

    /** The lease in a file; null if it was released meanwhile. */
    private T read(FileStatus s) {
        byte[] bytes = files.read(s.path());
        return bytes == null
                ? null
                : fromJson.apply(s.path(), new String(bytes, StandardCharsets.UTF_8));
    }
}
