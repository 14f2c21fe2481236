package io.weir.commit;

import io.weir.SnapshotLease;
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

/**
 * The reader leases of a table, one file per consumer: {@code _weir/consumers/<consumer id>.json}
 * (docs/format.md §6.7). A lease is replaced whole, so a reader sees the old or the new one.
 */
public final class LeaseFiles {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseFiles.class);
    private final MetadataFiles files;

    public LeaseFiles(FileIO io, String location) {
        this.files = new MetadataFiles(io, location);
    }

    /** The path of a consumer's lease file. */
    public String path(String consumerId) {
        return files.paths().consumer(consumerId);
    }

    /** Writes (or replaces) a lease. */
    public void write(SnapshotLease lease) {
        String path = path(lease.consumerId());
        try {
            files.io().overwrite(path, LeaseParser.toJson(lease).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write lease " + path, e);
        }
    }

    /** Deletes a consumer's lease, if it has one. */
    public void delete(String consumerId) {
        String path = path(consumerId);
        try {
            files.io().delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete lease " + path, e);
        }
    }

    /**
     * Every lease that parses. A lease file that does not parse (damaged: leases are replaced
     * atomically, so no reader leaves a partial one) is skipped with a warning and protects
     * nothing: one garbage file must not stop every expiry. {@link #damaged} lists them.
     */
    public List<SnapshotLease> list() {
        List<SnapshotLease> leases = new ArrayList<>();
        for (FileStatus s : leaseFiles()) {
            try {
                SnapshotLease lease = read(s);
                if (lease != null) {
                    leases.add(lease);
                }
            } catch (CorruptFileException e) {
                LOG.warn(
                        "Ignoring a damaged reader lease; it protects nothing: {}", e.getMessage());
            }
        }
        return leases;
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
        for (FileStatus s : files.list(files.paths().consumersDir())) {
            if (!MetadataPaths.isTemporary(s.path()) && s.path().endsWith(".json")) {
                out.add(s);
            }
        }
        return out;
    }

    /** The lease in a file; null if it was released meanwhile. */
    private SnapshotLease read(FileStatus s) {
        byte[] bytes = files.read(s.path());
        return bytes == null
                ? null
                : LeaseParser.fromJson(s.path(), new String(bytes, StandardCharsets.UTF_8));
    }
}
