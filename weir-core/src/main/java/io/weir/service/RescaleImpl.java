package io.weir.service;

import io.weir.CommitKind;
import io.weir.CommitResult;
import io.weir.DataFile;
import io.weir.DataFilePaths;
import io.weir.Rescale;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.commit.CommitLog;
import io.weir.commit.CommitOutcome;
import io.weir.commit.CommitRequest;
import io.weir.data.RowReader;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.exceptions.ValidationException;
import io.weir.options.TableOptions;
import io.weir.write.BulkWriteImpl;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@link Rescale} of a table: a new schema version with the new {@code bucket} option, the live
 * rows of the current snapshot sorted into the new file groups by the bulk writer, and one
 * OVERWRITE commit that replaces every file and puts the new version in force. The commit lands
 * only on the snapshot that was read; a writer that started before fails its next commit ({@code
 * CommitProducer} checks the bucket layout of added files). A table without a primary key places
 * rows in buckets freely, so only its option changes.
 */
public final class RescaleImpl implements Rescale {
    private static final Logger LOG = LoggerFactory.getLogger(RescaleImpl.class);

    private final Table table;
    private final CommitLog log;
    private int buckets = -1;
    private String spillDirectory = System.getProperty("java.io.tmpdir");

    public RescaleImpl(Table table, CommitLog log) {
        this.table = table;
        this.log = log;
    }

    @Override
    public Rescale buckets(int buckets) {
        this.buckets = buckets;
        return this;
    }

    @Override
    public Rescale spillDirectory(String directory) {
        this.spillDirectory = Objects.requireNonNull(directory, "directory");
        return this;
    }

    @Override
    public CommitResult commit() {
        ValidationException.check(
                buckets >= 1 && buckets <= 32768,
                "Cannot rescale table %s to %s buckets: the number of buckets must be between 1"
                        + " and 32768",
                table.location(),
                buckets);
        table.refresh();
        Snapshot base = table.currentSnapshot();
        TableMetadata old = table.metadata();
        int from = old.options().bucket();
        if (from == buckets) {
            return null;
        }
        TableOptions options =
                old.options().with(Map.of(TableOptions.BUCKET.key(), String.valueOf(buckets)));
        TableMetadata next = log.addSchema(old.schema(), options);
        CommitRequest.Builder request =
                CommitRequest.builder(
                                old.schema().hasPrimaryKey()
                                        ? CommitKind.OVERWRITE
                                        : CommitKind.APPEND)
                        .schemaId(next.schemaId())
                        .requireLatest(base.id())
                        .property(COMMIT_PROPERTY, from + " -> " + buckets);
        List<DataFile> written = List.of();
        try (BulkWriteImpl write =
                new BulkWriteImpl(
                        table.io(),
                        table.location(),
                        next,
                        0,
                        options.writeBufferSize(),
                        Path.of(spillDirectory),
                        64)) {
            if (old.schema().hasPrimaryKey()) {
                try (RowReader rows = table.newScan().useSnapshot(base.id()).rows()) {
                    while (rows.next()) {
                        write.write(rows.row());
                    }
                }
                written = write.prepareCommit();
                request.overwriteAll().add(written).verifyAddedFiles();
            }
            CommitOutcome outcome;
            try {
                outcome = log.commit(request.build());
            } catch (CommitStateUnknownException e) {
                throw e; // the files may be committed: leave them to orphan removal
            } catch (RuntimeException e) {
                deleteQuietly(written);
                throw e;
            }
            LOG.info(
                    "Rescaled table {} from {} to {} buckets in commit {}: {} files written",
                    table.location(),
                    from,
                    buckets,
                    outcome.commit().id(),
                    written.size());
            return new CommitResult(outcome.commit(), false);
        }
    }

    private void deleteQuietly(List<DataFile> files) {
        for (DataFile f : files) {
            try {
                table.io().delete(DataFilePaths.resolve(table.location(), f.path()));
            } catch (java.io.IOException e) {
                // An orphan: orphan removal deletes it.
            }
        }
    }
}
