package io.weir.commit;

import io.weir.SnapshotLease;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;

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
     * Every lease. A lease file that cannot be parsed fails the call: ignoring it could expire a
     * snapshot a reader needs.
     *
     * @throws io.weir.exceptions.CorruptFileException naming the damaged lease file
     */
    public List<SnapshotLease> list() {
        List<SnapshotLease> leases = new ArrayList<>();
        for (FileStatus s : files.list(files.paths().consumersDir())) {
            if (MetadataPaths.isTemporary(s.path()) || !s.path().endsWith(".json")) {
                continue;
            }
            byte[] bytes = files.read(s.path());
            if (bytes != null) { // null: released meanwhile
                leases.add(
                        LeaseParser.fromJson(s.path(), new String(bytes, StandardCharsets.UTF_8)));
            }
        }
        return leases;
    }
}
