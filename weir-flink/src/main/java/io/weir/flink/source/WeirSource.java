package io.weir.flink.source;

import io.weir.SnapshotLease;
import io.weir.Table;
import io.weir.TableScan;
import io.weir.Tables;
import io.weir.exceptions.ValidationException;
import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;
import io.weir.flink.FileIOLoader;
import io.weir.flink.FlinkRows;
import io.weir.flink.FlinkTypes;
import io.weir.flink.source.internal.ReadSpec;
import io.weir.flink.source.internal.WeirSourceReader;
import io.weir.flink.source.internal.WeirSplitEnumerator;
import io.weir.io.FileIO;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.function.SerializableSupplier;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Reads a Weir table as Flink {@link RowData} (binary rows over the table's own bytes): a snapshot,
 * the changes between two commits, or a stream of changes that follows new commits.
 *
 * <pre>{@code
 * // bounded: the latest snapshot, two columns, a filter
 * WeirSource.builder().location(path).select("id", "name").filter(greaterThan("id", 10)).build();
 * // bounded changelog: the net changes after commit 5 up to commit 9
 * WeirSource.builder().location(path).incrementalBetween(5, 9).build();
 * // unbounded: the current snapshot as +I, then every new commit's changes
 * WeirSource.builder().location(path).streaming(true).build();
 * }</pre>
 *
 * <p>Changes are net changes per primary key between commits (+I, -U/+U, -D); compactions yield
 * none. In a streaming read all splits of a file group are read, in commit order, by the same
 * reader subtask, so a key's changes are never reordered. Readers checkpoint how many rows of their
 * current split they emitted and skip them after a restore: exactly once. Rescaling a streaming
 * read on restore keeps every change but may reorder the changes of one key that were in flight.
 */
public final class WeirSource
        implements Source<RowData, WeirSplit, WeirEnumeratorState>, ResultTypeQueryable<RowData> {
    private static final long serialVersionUID = 1L;

    /**
     * How long a streaming read's lease lasts without renewal: a stopped job resumes within a day.
     */
    public static final Duration DEFAULT_LEASE_TTL = Duration.ofDays(1);

    /**
     * The same for bounded reads, which need their snapshot only while they run: an interactive
     * query cancelled early then pins the table's history for an hour, not a day.
     */
    public static final Duration DEFAULT_BOUNDED_LEASE_TTL = Duration.ofHours(1);

    /** The rows of {@link Builder#countRows()}. */
    static final RowType COUNT_TYPE =
            RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"count"});

    private final ReadSpec spec;
    private final RowType rowType;

    private WeirSource(ReadSpec spec, RowType rowType) {
        this.spec = spec;
        this.rowType = rowType;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The type of the rows read (the projected columns). */
    public RowType rowType() {
        return rowType;
    }

    @Override
    public Boundedness getBoundedness() {
        return spec.bounded() ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SplitEnumerator<WeirSplit, WeirEnumeratorState> createEnumerator(
            SplitEnumeratorContext<WeirSplit> context) {
        return new WeirSplitEnumerator(context, spec, WeirEnumeratorState.INITIAL);
    }

    @Override
    public SplitEnumerator<WeirSplit, WeirEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<WeirSplit> context, WeirEnumeratorState state) {
        return new WeirSplitEnumerator(context, spec, state);
    }

    @Override
    public SimpleVersionedSerializer<WeirSplit> getSplitSerializer() {
        return WeirSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<WeirEnumeratorState> getEnumeratorCheckpointSerializer() {
        return WeirEnumeratorStateSerializer.INSTANCE;
    }

    @Override
    public SourceReader<RowData, WeirSplit> createReader(SourceReaderContext context) {
        FlinkRows.checkByteOrder();
        return new WeirSourceReader(spec, rowType.getFieldCount(), context);
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(rowType);
    }

    @Override
    public String toString() {
        return "WeirSource(" + spec.location() + ")";
    }

    /**
     * Configures a {@link WeirSource}. Only the location is required; by default the source reads
     * the latest snapshot, all columns, all rows, bounded.
     */
    public static final class Builder {
        private String location;
        private SerializableSupplier<FileIO> io;
        private List<String> columns;
        private Expression filter = Expressions.alwaysTrue();
        private long limit = -1;
        private StartMode startMode = StartMode.FULL;
        private long snapshotId = -1;
        private long timestampMillis = -1;
        private long incrementalFrom = -1;
        private long incrementalTo = -1;
        private boolean streaming;
        private Duration discoveryInterval = Duration.ofSeconds(1);
        private String consumerId;
        private Duration leaseTtl;
        private Boolean leases;
        private boolean countRows;
        private int schemaId = -1;
        private boolean baseFilesOnly;

        private Builder() {}

        /** The table's location (required). */
        public Builder location(String location) {
            this.location = location;
            return this;
        }

        /**
         * Creates the table's file system on each task (default: the file system of the location's
         * scheme with the default storage options, {@link FileIOLoader#of(String)}).
         */
        public Builder fileIO(SerializableSupplier<FileIO> io) {
            this.io = Objects.requireNonNull(io, "io");
            return this;
        }

        /** Read only these columns, in this order (default: all). */
        public Builder select(List<String> columns) {
            this.columns = List.copyOf(columns);
            return this;
        }

        public Builder select(String... columns) {
            return select(List.of(columns));
        }

        /**
         * Read only rows that match; applied exactly, row by row, and used to skip files. Combined
         * with earlier filters by AND.
         */
        public Builder filter(Expression filter) {
            this.filter = Expressions.and(this.filter, Objects.requireNonNull(filter, "filter"));
            return this;
        }

        /**
         * At most this many rows per reader subtask in a bounded read (with parallelism 1: the
         * first {@code limit} rows). Ignored by unbounded reads.
         */
        public Builder limit(long limit) {
            ValidationException.check(limit >= 0, "Invalid limit %s: must be >= 0", limit);
            this.limit = limit;
            return this;
        }

        /**
         * Emit, for each split of a bounded snapshot read, one row {@code (count BIGINT NOT NULL)}
         * with the number of rows the split holds instead of the rows: a {@code COUNT(*)} pushed
         * into the source, whose partial counts a downstream sum adds up. Splits that are base
         * files of one compaction are counted from metadata, without reading them.
         */
        public Builder countRows() {
            this.countRows = true;
            return this;
        }

        /**
         * Return the columns of this schema version of the table (default: its current one when the
         * source is built). The source keeps them whatever schema changes follow; files of other
         * versions are mapped by field id (docs/format.md, "Schema evolution").
         */
        public Builder schemaId(int schemaId) {
            ValidationException.check(
                    schemaId >= 0, "Invalid schema id %s: must be >= 0", schemaId);
            this.schemaId = schemaId;
            return this;
        }

        /**
         * Read only the base files of each file group (read-optimized): the rows as of each group's
         * last compaction, without the logs written since. For bounded snapshot reads.
         */
        public Builder baseFilesOnly() {
            this.baseFilesOnly = true;
            return this;
        }

        /** Where the read starts (default {@link StartMode#FULL}). */
        public Builder startMode(StartMode mode) {
            this.startMode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * With {@link StartMode#FULL}: read the snapshot of this commit. With {@link
         * StartMode#FROM_SNAPSHOT}: read changes from this commit on (inclusive).
         */
        public Builder snapshotId(long commitId) {
            this.snapshotId = commitId;
            return this;
        }

        /**
         * With {@link StartMode#FULL}: read the snapshot as of this time (the latest commit at or
         * before it). With {@link StartMode#FROM_SNAPSHOT}: read changes of the commits made at or
         * after it.
         */
        public Builder timestamp(long epochMillis) {
            this.timestampMillis = epochMillis;
            return this;
        }

        /**
         * Read the net changes after commit {@code fromExclusive} up to and including {@code
         * toInclusive}: a bounded changelog, also in a streaming job.
         */
        public Builder incrementalBetween(long fromExclusive, long toInclusive) {
            ValidationException.check(
                    fromExclusive >= 0 && fromExclusive <= toInclusive,
                    "Invalid incremental range (%s, %s]: the start must be >= 0 and at most the"
                            + " end",
                    fromExclusive,
                    toInclusive);
            this.incrementalFrom = fromExclusive;
            this.incrementalTo = toInclusive;
            return this;
        }

        /** Follow new commits after the start (unbounded); default false (bounded). */
        public Builder streaming(boolean streaming) {
            this.streaming = streaming;
            return this;
        }

        /** How often a streaming read looks for new commits (default 1 s). */
        public Builder discoveryInterval(Duration interval) {
            ValidationException.check(
                    interval != null && !interval.isNegative() && !interval.isZero(),
                    "Invalid discovery interval %s: must be positive",
                    interval);
            this.discoveryInterval = interval;
            return this;
        }

        /**
         * The id under which the source leases the snapshots it still needs
         * (docs/table-services.md), stable across restarts; two sources of one table need two ids.
         * Default: minted at a start without state ({@code <table directory>-<random>}) and kept in
         * the source's checkpoints.
         */
        public Builder consumerId(String consumerId) {
            try {
                SnapshotLease.checkConsumerId(consumerId);
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new ValidationException(e.getMessage(), e);
            }
            this.consumerId = consumerId;
            return this;
        }

        /**
         * How long the source's lease keeps the snapshots it needs without being renewed (default 1
         * day for streaming reads, 1 hour for bounded ones): the longest outage after which a
         * stopped job can still resume where it stopped. The enumerator renews it every third of
         * this and on each completed checkpoint.
         */
        public Builder leaseTtl(Duration ttl) {
            ValidationException.check(
                    ttl != null && ttl.toMillis() >= 1000,
                    "Invalid lease duration %s: must be at least 1 s",
                    ttl);
            this.leaseTtl = ttl;
            return this;
        }

        /**
         * Whether the source leases the snapshots it reads (default: true for streaming reads,
         * false for bounded ones, which the age retention protects while they finish within {@code
         * snapshot.time-retained}). Without a lease, a snapshot expiry may delete files a longer
         * read still needs.
         */
        public Builder leases(boolean enabled) {
            this.leases = enabled;
            return this;
        }

        /**
         * Validates the options, loads the table once to check columns and filter, and builds the
         * source.
         *
         * @throws ValidationException naming what is wrong
         */
        public WeirSource build() {
            ValidationException.check(
                    location != null && !location.isBlank(),
                    "Cannot read a Weir table: no location");
            validateStart();
            SerializableSupplier<FileIO> io = this.io != null ? this.io : FileIOLoader.of(location);
            Table table = Tables.load(io.get(), location);
            int schema = schemaId >= 0 ? schemaId : table.metadata().schemaId();
            TableScan scan = table.newScan().useSchema(schema).filter(filter);
            if (columns != null) {
                scan = scan.select(columns);
            }
            ReadSpec spec =
                    new ReadSpec(
                            location,
                            io,
                            columns,
                            filter,
                            limit,
                            startMode,
                            snapshotId,
                            timestampMillis,
                            incrementalFrom,
                            incrementalTo,
                            streaming,
                            discoveryInterval.toMillis(),
                            consumerId,
                            leased() ? leaseTtl().toMillis() : 0,
                            schema,
                            countRows,
                            baseFilesOnly);
            return new WeirSource(
                    spec, countRows ? COUNT_TYPE : FlinkTypes.toFlink(scan.readType()));
        }

        private boolean leased() {
            return leases != null ? leases : streaming;
        }

        private Duration leaseTtl() {
            if (leaseTtl != null) {
                return leaseTtl;
            }
            return streaming && incrementalTo < 0 ? DEFAULT_LEASE_TTL : DEFAULT_BOUNDED_LEASE_TTL;
        }

        private void validateStart() {
            boolean incremental = incrementalTo >= 0;
            ValidationException.check(
                    !countRows
                            || (!streaming
                                    && !incremental
                                    && startMode == StartMode.FULL
                                    && limit < 0),
                    "Cannot count the rows of table %s in a streaming, incremental or limited"
                            + " read: counting is for bounded snapshot reads",
                    location);
            ValidationException.check(
                    !baseFilesOnly || (!streaming && !incremental && startMode == StartMode.FULL),
                    "Cannot read only the base files of table %s in a streaming or change read:"
                            + " read-optimized reads are bounded snapshot reads",
                    location);
            ValidationException.check(
                    snapshotId < 0 || timestampMillis < 0,
                    "Cannot read table %s both at snapshot id %s and at timestamp %s: choose one",
                    location,
                    snapshotId,
                    timestampMillis);
            ValidationException.check(
                    !incremental
                            || (startMode == StartMode.FULL
                                    && snapshotId < 0
                                    && timestampMillis < 0),
                    "Cannot read table %s incrementally between commits %s and %s with a start"
                            + " mode, snapshot id or timestamp: the range says where to start",
                    location,
                    incrementalFrom,
                    incrementalTo);
            ValidationException.check(
                    startMode != StartMode.LATEST || (snapshotId < 0 && timestampMillis < 0),
                    "Cannot read table %s from the latest commit and from a snapshot id or"
                            + " timestamp: use start mode 'full' or 'from-snapshot'",
                    location);
            ValidationException.check(
                    startMode != StartMode.FROM_SNAPSHOT || snapshotId >= 1 || timestampMillis >= 0,
                    "Cannot read table %s from a snapshot: set a snapshot id (>= 1) or a"
                            + " timestamp",
                    location);
        }
    }
}
