package io.weir.table;

import io.weir.AppendFiles;
import io.weir.BulkWrite;
import io.weir.Commit;
import io.weir.Compaction;
import io.weir.ExpirePartitions;
import io.weir.ExpireSnapshots;
import io.weir.IncrementalScan;
import io.weir.OverwriteFiles;
import io.weir.RemoveOrphanFiles;
import io.weir.Rescale;
import io.weir.Snapshot;
import io.weir.SnapshotLeases;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.TableScan;
import io.weir.TableWrite;
import io.weir.Tags;
import io.weir.UpdateSchema;
import io.weir.WriterLeases;
import io.weir.commit.AppendFilesImpl;
import io.weir.commit.CommitLog;
import io.weir.commit.OverwriteFilesImpl;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.scan.IncrementalScanImpl;
import io.weir.scan.TableScanImpl;
import io.weir.schema.UpdateSchemaImpl;
import io.weir.service.CompactionImpl;
import io.weir.service.FileSnapshotLeases;
import io.weir.service.FileWriterLeases;
import io.weir.service.OrphanFileRemoval;
import io.weir.service.PartitionExpiry;
import io.weir.service.RescaleImpl;
import io.weir.service.SnapshotExpiry;
import io.weir.tag.FileTags;
import io.weir.write.AppendBuckets;
import io.weir.write.BulkWriteImpl;
import io.weir.write.TableWriteImpl;

import java.nio.file.Path;
import java.util.Objects;

/** The {@link Table} over a {@link CommitLog}. */
public final class TableImpl implements Table {
    private final CommitLog log;

    public TableImpl(CommitLog log) {
        this.log = log;
    }

    @Override
    public String location() {
        return log.location();
    }

    @Override
    public FileIO io() {
        return log.io();
    }

    @Override
    public TableMetadata metadata() {
        return log.metadata();
    }

    @Override
    public TableMetadata metadata(int schemaId) {
        return log.metadata(schemaId);
    }

    @Override
    public java.util.List<Integer> schemaIds() {
        return log.schemaIds();
    }

    @Override
    public Snapshot currentSnapshot() {
        return log.current();
    }

    /** A retained snapshot, or an expired one that a tag keeps. */
    @Override
    public Snapshot snapshot(long commitId) {
        try {
            return log.state(commitId);
        } catch (SnapshotExpiredException e) {
            Snapshot tagged = new FileTags(log).taggedSnapshot(commitId);
            if (tagged == null) {
                throw e;
            }
            return tagged;
        }
    }

    @Override
    public Snapshot snapshotAsOf(long timestampMillis) {
        return log.state(log.commitIdAsOf(timestampMillis));
    }

    @Override
    public Commit commit(long commitId) {
        return log.commit(commitId);
    }

    @Override
    public void refresh() {
        log.refresh();
    }

    @Override
    public TableWrite.Builder newWrite() {
        return new TableWrite.Builder() {
            private int[] appendBuckets = {0};
            private long writeBufferSize = -1;
            private TableMetadata metadata = metadata();

            @Override
            public TableWrite.Builder useSchema(int schemaId) {
                this.metadata = metadata(schemaId);
                return this;
            }

            @Override
            public TableWrite.Builder appendBucket(int bucket) {
                this.appendBuckets = new int[] {bucket};
                return this;
            }

            @Override
            public TableWrite.Builder appendBuckets(int... buckets) {
                ValidationException.check(
                        buckets.length > 0, "No append bucket given for table %s", location());
                this.appendBuckets = buckets.clone();
                return this;
            }

            @Override
            public TableWrite.Builder writeBufferSize(long bytes) {
                this.writeBufferSize = bytes;
                return this;
            }

            @Override
            public TableWrite create() {
                int buckets = metadata.options().bucket();
                for (int bucket : appendBuckets) {
                    ValidationException.check(
                            bucket >= 0 && bucket < buckets,
                            "Invalid append bucket %s for table %s: it has buckets 0 to %s",
                            bucket,
                            location(),
                            buckets - 1);
                }
                AppendBuckets choice =
                        appendBuckets.length == 1 || metadata.schema().hasPrimaryKey()
                                ? AppendBuckets.fixed(appendBuckets[0])
                                : AppendBuckets.of(
                                        appendBuckets,
                                        currentSnapshot(),
                                        metadata.options().targetFileSize());
                return new TableWriteImpl(
                        io(),
                        location(),
                        metadata,
                        choice,
                        writeBufferSize > 0
                                ? writeBufferSize
                                : metadata.options().writeBufferSize());
            }
        };
    }

    @Override
    public BulkWrite.Builder newBulkWrite() {
        return new BulkWrite.Builder() {
            private int appendBucket;
            private long writeBufferSize = -1;
            private TableMetadata metadata = metadata();
            private String spillDirectory = System.getProperty("java.io.tmpdir");
            private int maxMergeFanIn = 64;

            @Override
            public BulkWrite.Builder appendBucket(int bucket) {
                this.appendBucket = bucket;
                return this;
            }

            @Override
            public BulkWrite.Builder useSchema(int schemaId) {
                this.metadata = metadata(schemaId);
                return this;
            }

            @Override
            public BulkWrite.Builder writeBufferSize(long bytes) {
                this.writeBufferSize = bytes;
                return this;
            }

            @Override
            public BulkWrite.Builder spillDirectory(String directory) {
                this.spillDirectory = Objects.requireNonNull(directory, "directory");
                return this;
            }

            @Override
            public BulkWrite.Builder maxMergeFanIn(int runs) {
                ValidationException.check(
                        runs >= 2, "Invalid merge fan-in %s: must be at least 2", runs);
                this.maxMergeFanIn = runs;
                return this;
            }

            @Override
            public BulkWrite create() {
                return new BulkWriteImpl(
                        io(),
                        location(),
                        metadata,
                        appendBucket,
                        writeBufferSize > 0
                                ? writeBufferSize
                                : metadata.options().writeBufferSize(),
                        Path.of(spillDirectory),
                        maxMergeFanIn);
            }
        };
    }

    @Override
    public AppendFiles newAppend() {
        return new AppendFilesImpl(log);
    }

    @Override
    public OverwriteFiles newOverwrite() {
        return new OverwriteFilesImpl(log);
    }

    @Override
    public Snapshot rollbackTo(long commitId) {
        return log.rollbackTo(commitId).state();
    }

    @Override
    public TableScan newScan() {
        return new TableScanImpl(this);
    }

    @Override
    public IncrementalScan newIncrementalScan() {
        return new IncrementalScanImpl(this);
    }

    @Override
    public Compaction newCompaction() {
        return new CompactionImpl(this, log);
    }

    @Override
    public Rescale newRescale() {
        return new RescaleImpl(this, log);
    }

    @Override
    public UpdateSchema updateSchema() {
        return new UpdateSchemaImpl(this, log);
    }

    @Override
    public long earliestRetainedCommit() {
        return log.earliestRetainedCommit();
    }

    @Override
    public ExpireSnapshots expireSnapshots() {
        return new SnapshotExpiry(log);
    }

    @Override
    public ExpirePartitions expirePartitions() {
        return new PartitionExpiry(log);
    }

    @Override
    public RemoveOrphanFiles removeOrphanFiles() {
        return new OrphanFileRemoval(log);
    }

    @Override
    public SnapshotLeases leases() {
        return new FileSnapshotLeases(log);
    }

    @Override
    public WriterLeases writerLeases() {
        return new FileWriterLeases(this, log);
    }

    @Override
    public Tags tags() {
        return new FileTags(log);
    }

    @Override
    public String toString() {
        return "Table(" + location() + ")";
    }
}
