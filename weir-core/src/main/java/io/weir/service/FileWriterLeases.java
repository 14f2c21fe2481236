package io.weir.service;

import io.weir.PendingFilesLease;
import io.weir.Table;
import io.weir.WriterLease;
import io.weir.WriterLeases;
import io.weir.commit.CommitLog;
import io.weir.commit.LeaseFiles;
import io.weir.exceptions.ValidationException;
import io.weir.write.PendingFilesLeaseImpl;

import java.time.Duration;
import java.util.List;

/** The {@link WriterLeases} of a table, stored as files under {@code _weir/writers/}. */
public final class FileWriterLeases implements WriterLeases {
    private final Table table;
    private final CommitLog log;
    private final LeaseFiles<WriterLease> files;

    public FileWriterLeases(Table table, CommitLog log) {
        this.table = table;
        this.log = log;
        this.files = LeaseFiles.writers(log.io(), log.location());
    }

    @Override
    public WriterLease hold(String writerId, long oldestFileMillis, Duration ttl) {
        ValidationException.check(
                ttl != null && !ttl.isNegative() && !ttl.isZero(),
                "Invalid lease duration %s for writer %s of table %s: must be positive",
                ttl,
                writerId,
                log.location());
        WriterLease lease;
        try {
            lease =
                    new WriterLease(
                            writerId, oldestFileMillis, log.clock().millis() + ttl.toMillis());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new ValidationException(
                    "Cannot hold a writer lease on table " + log.location() + ": " + e.getMessage(),
                    e);
        }
        files.write(lease);
        return lease;
    }

    @Override
    public void release(String writerId) {
        try {
            new WriterLease(writerId, 0, 0);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new ValidationException(
                    "Cannot release a writer lease of table "
                            + log.location()
                            + ": "
                            + e.getMessage(),
                    e);
        }
        files.delete(writerId);
    }

    @Override
    public List<WriterLease> list() {
        return files.list();
    }

    @Override
    public PendingFilesLease forPendingFiles(String writerId, Duration ttl) {
        return new PendingFilesLeaseImpl(table, writerId, ttl);
    }
}
