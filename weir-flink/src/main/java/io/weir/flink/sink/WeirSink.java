package io.weir.flink.sink;

import io.weir.BulkWrite;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.exceptions.ValidationException;
import io.weir.flink.FlinkRows;
import io.weir.flink.compat.VersionedSink;
import io.weir.flink.sink.internal.BucketPartitioner;
import io.weir.flink.sink.internal.CommitAggregator;
import io.weir.flink.sink.internal.CommitPlan;
import io.weir.flink.sink.internal.CommitterMetrics;
import io.weir.flink.sink.internal.CompactionBackPressure;
import io.weir.flink.sink.internal.PostCommitCompactor;
import io.weir.flink.sink.internal.WriterMetrics;
import io.weir.io.FileIO;
import io.weir.partition.PartitionHash;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.function.SerializableSupplier;

import javax.annotation.Nullable;

/**
 * The exactly-once Flink sink of a Weir table: {@code stream.sinkTo(WeirSink.builder()
 * .location(path).build())}.
 *
 * <p>Topology:
 *
 * <pre>
 * rows ──(bucket shuffle: keyed tables)──> writers ──(global)──> aggregator (1) ──(global)──> committer (subtask 0)
 *                                          TableWrite            one committable per           one atomic Weir
 *                                          per subtask           checkpoint                    commit per checkpoint
 * </pre>
 *
 * <ul>
 *   <li>Keyed tables: every (partition, bucket) goes to exactly one writer ({@link
 *       BucketPartitioner}). Append-only tables need no shuffle: writer subtask {@code i} of {@code
 *       p} appends to one of the buckets {@code i, i + p, ...} per partition (the one with the most
 *       undersized data), or to {@code i % buckets} if there are more writers.
 *   <li>The input must be typed {@code InternalTypeInfo.of(rowType)}: the shuffle then uses Flink's
 *       binary row serializer, and the writer views each row in place. No Kryo anywhere.
 *   <li>Files are written before a checkpoint completes and committed after it: streaming jobs
 *       commit on each completed checkpoint (bounded input: at the final checkpoint); batch jobs
 *       commit once at end of input.
 *   <li>{@link WriteMode#BULK_INSERT} (batch only): each writer is a {@link BulkWrite}, which sorts
 *       all its rows and writes sorted base files at the end of the input.
 * </ul>
 *
 * <p><b>Writer identity.</b> Each commit records (writer id, checkpoint id), and Weir skips a
 * commit whose checkpoint is at or below the writer's last committed one: that makes re-commits
 * after a failover no-ops. The writer id is fixed where committables are created (the aggregator)
 * and stored in each committable, so a restored committable is re-committed under the id it was
 * first committed with, whatever the restored job is called:
 *
 * <ul>
 *   <li>The id is {@code <commitUser>-<Flink job id>-<aggregator operator id>} of the run that
 *       minted it: distinct for two sinks of one job (their operator ids differ), and it tells
 *       which job wrote a commit.
 *   <li>With checkpointing, it also carries a random suffix and lives in the aggregator's operator
 *       state: a failover, or a restore from a savepoint (also into a new job id), keeps it, and
 *       the restored job's checkpoint ids continue above the savepoint's. A start without state
 *       mints a new id, because its checkpoint ids start again at 1: with a reused id (a job id
 *       fixed by the deployment, as application mode with HA does) Weir would take its first
 *       commits for re-commits of the previous run's and skip them, losing data. (Restoring a
 *       checkpoint older than the last one committed cannot be exactly-once under any scheme: Weir
 *       then skips the restored job's commits up to the last committed checkpoint id as
 *       re-commits.)
 *   <li>Without checkpointing (batch, or streaming without checkpoints) nothing is ever restored
 *       and a rerun of the job must recognise its own earlier commit: the id is deterministic (no
 *       suffix) and the single commit uses checkpoint id 1.
 * </ul>
 *
 * <p>Immutable and serializable; build it with {@link #builder()}.
 */
public final class WeirSink
        implements VersionedSink<RowData>,
                SupportsCommitter<WeirCommittable>,
                SupportsPreWriteTopology<RowData>,
                SupportsPreCommitTopology<WeirWriteResult, WeirCommittable>,
                SupportsPostCommitTopology<WeirCommittable> {
    private static final long serialVersionUID = 1L;

    private final SerializableSupplier<FileIO> io;
    private final String location;
    private final RowType rowType;
    private final int buckets;
    private final int schemaId;
    private final int[] primaryKey;
    private final PartitionHash partitionHash;
    private final CommitPlan plan;
    private final long writeBufferSize;
    private final WriteMode writeMode;
    @Nullable private final String spillDirectory;
    private final String commitUser;
    private final boolean compactInJob;
    private final WeirSinkHook hook;

    WeirSink(
            SerializableSupplier<FileIO> io,
            String location,
            RowType rowType,
            int buckets,
            int schemaId,
            int[] primaryKey,
            PartitionHash partitionHash,
            CommitPlan plan,
            long writeBufferSize,
            WriteMode writeMode,
            @Nullable String spillDirectory,
            String commitUser,
            boolean compactInJob,
            WeirSinkHook hook) {
        this.io = io;
        this.location = location;
        this.rowType = rowType;
        this.buckets = buckets;
        this.schemaId = schemaId;
        this.primaryKey = primaryKey.clone();
        this.partitionHash = partitionHash;
        this.plan = plan;
        this.writeBufferSize = writeBufferSize;
        this.writeMode = writeMode;
        this.spillDirectory = spillDirectory;
        this.commitUser = commitUser;
        this.compactInJob = compactInJob;
        this.hook = hook;
    }

    public static WeirSinkBuilder builder() {
        return new WeirSinkBuilder();
    }

    /** The table's location. */
    public String location() {
        return location;
    }

    /** The type of the rows this sink takes. */
    public RowType rowType() {
        return rowType;
    }

    /** Whether the table has a primary key (rows upsert and delete) or is append-only. */
    public boolean isKeyed() {
        return primaryKey.length > 0;
    }

    /** The type the input stream must have. */
    public TypeInformation<RowData> inputType() {
        return InternalTypeInfo.of(rowType);
    }

    @Override
    public CommittingSinkWriter<RowData, WeirWriteResult> createWriter(WriterInitContext context) {
        int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        Table table = Tables.load(io.get(), location);
        ValidationException.check(
                table.options().bucket() == buckets,
                "Cannot write table %s: it has %s buckets now, the job was built for %s",
                location,
                table.options().bucket(),
                buckets);
        int writers = context.getTaskInfo().getNumberOfParallelSubtasks();
        TableWrite write =
                writeMode == WriteMode.BULK_INSERT
                        ? newBulkWrite(table, subtask)
                        : newWrite(table, subtask, writers);
        WriterMetrics metrics = new WriterMetrics(context.metricGroup(), write);
        // The lease and the back-pressure share the table: a renewal's refresh is a state the
        // back-pressure need not read again.
        CompactionBackPressure backPressure =
                CompactionBackPressure.of(
                        table, compactInJob && writeMode != WriteMode.BULK_INSERT);
        metrics.register(backPressure);
        return new WeirSinkWriter(
                write,
                table.writerLeases().forPendingFiles(writerLeaseId(context), WRITER_LEASE_TTL),
                backPressure,
                new FlinkRows.ToWeir(rowType),
                metrics,
                hook,
                subtask);
    }

    /**
     * How long a writer's lease on its files not committed yet protects them without renewal
     * (docs/table-services.md, "Writer leases"): the longest a restored job may take to commit the
     * files of its last checkpoint again.
     */
    static final java.time.Duration WRITER_LEASE_TTL = java.time.Duration.ofHours(1);

    /** Unique per writer attempt: the job, the subtask and a random part. */
    private static String writerLeaseId(WriterInitContext context) {
        return "flink-"
                + context.getJobInfo().getJobId()
                + "-"
                + context.getTaskInfo().getIndexOfThisSubtask()
                + "-"
                + java.util.UUID.randomUUID().toString().substring(0, 8);
    }

    private TableWrite newWrite(Table table, int subtask, int writers) {
        TableWrite.Builder builder =
                table.newWrite()
                        .useSchema(schemaId)
                        .appendBuckets(appendBuckets(subtask, writers, buckets));
        if (writeBufferSize > 0) {
            builder.writeBufferSize(writeBufferSize);
        }
        return builder.create();
    }

    /** One sort per writer: its files are written at the end of the input (batch). */
    private TableWrite newBulkWrite(Table table, int subtask) {
        BulkWrite.Builder builder =
                table.newBulkWrite().useSchema(schemaId).appendBucket(subtask % buckets);
        if (writeBufferSize > 0) {
            builder.writeBufferSize(writeBufferSize);
        }
        if (spillDirectory != null) {
            builder.spillDirectory(spillDirectory);
        }
        return builder.create();
    }

    /**
     * Append-only tables: the buckets of writer {@code i} of {@code p}, {@code i, i + p, ...} below
     * the bucket count (or {@code i % buckets} when there are more writers than buckets), so that
     * writers never share a bucket while there are enough; per partition the writer fills the one
     * with the most undersized data.
     */
    static int[] appendBuckets(int subtask, int writers, int buckets) {
        if (writers >= buckets) {
            return new int[] {subtask % buckets};
        }
        return java.util.stream.IntStream.iterate(subtask, b -> b < buckets, b -> b + writers)
                .toArray();
    }

    @Override
    public Committer<WeirCommittable> createCommitter(CommitterInitContext context) {
        return new WeirCommitter(
                io,
                location,
                new CommitterMetrics(
                        context.metricGroup(), context.getTaskInfo().getIndexOfThisSubtask()),
                hook);
    }

    @Override
    public SimpleVersionedSerializer<WeirCommittable> getCommittableSerializer() {
        return new WeirCommittableSerializer();
    }

    @Override
    public SimpleVersionedSerializer<WeirWriteResult> getWriteResultSerializer() {
        return new WeirWriteResultSerializer();
    }

    /** The bucket shuffle (keyed tables); checks the input's type and execution mode. */
    @Override
    public DataStream<RowData> addPreWriteTopology(DataStream<RowData> input) {
        ValidationException.check(
                input.getType() instanceof InternalTypeInfo<?>,
                "Cannot write to table %s: the input stream has type %s; it must be"
                        + " InternalTypeInfo.of(rowType) (Flink's binary row serializer), for"
                        + " example by .map(..., InternalTypeInfo.of(rowType)) or"
                        + " .returns(InternalTypeInfo.of(rowType))",
                location,
                input.getType());
        RuntimeExecutionMode mode =
                input.getExecutionEnvironment()
                        .getConfiguration()
                        .get(ExecutionOptions.RUNTIME_MODE);
        if (plan.isOverwrite()) {
            ValidationException.check(
                    mode == RuntimeExecutionMode.BATCH,
                    "Cannot overwrite table %s in %s execution mode: INSERT OVERWRITE needs batch"
                            + " execution",
                    location,
                    mode);
        }
        ValidationException.check(
                writeMode != WriteMode.BULK_INSERT || mode == RuntimeExecutionMode.BATCH,
                "Cannot bulk insert into table %s in %s execution mode ('write.mode' ="
                        + " 'bulk-insert'): bulk insert sorts the whole input, so it needs batch"
                        + " execution ('execution.runtime-mode' = 'batch'); use 'upsert' for"
                        + " streaming",
                location,
                mode);
        if (!isKeyed()) {
            return input;
        }
        BucketPartitioner partitioner =
                new BucketPartitioner(rowType, primaryKey, partitionHash, buckets);
        return new DataStream<>(
                input.getExecutionEnvironment(),
                new PartitionTransformation<>(input.getTransformation(), partitioner));
    }

    /**
     * All write results to one aggregator (parallelism 1), its committables to committer subtask 0:
     * Flink 1.20 has no way to give the committer parallelism 1, so the trailing {@code global()}
     * does it (the pattern of Iceberg's sink).
     */
    @Override
    public DataStream<CommittableMessage<WeirCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<WeirWriteResult>> results) {
        TypeInformation<CommittableMessage<WeirCommittable>> type =
                CommittableMessageTypeInfo.of(WeirCommittableSerializer::new);
        return results.global()
                .transform("Weir commit aggregator", type, new CommitAggregator(commitUser, plan))
                .setParallelism(1)
                .setMaxParallelism(1)
                .global();
    }

    /** How the writers write. */
    public WriteMode writeMode() {
        return writeMode;
    }

    /** Whether the job compacts the table after its commits (the table is not write-only). */
    public boolean compactsInJob() {
        return compactInJob;
    }

    /**
     * In-job compaction (unless the table is {@code write-only}): the committed committables go to
     * one compaction operator (parallelism 1) that compacts in the background; see {@link
     * PostCommitCompactor}. One subtask with {@code compaction.threads} threads: a round is planned
     * and committed in one place (one commit, never two rounds racing for the same files), and the
     * budget bounds what it takes from the job. Large backlogs are the separate compaction job's
     * work.
     */
    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<WeirCommittable>> committed) {
        if (!compactInJob) {
            return;
        }
        committed
                .global()
                .transform(
                        "Weir compaction", Types.VOID, new PostCommitCompactor(io, location, hook))
                .setParallelism(1)
                .setMaxParallelism(1);
    }

    @Override
    public String toString() {
        return "WeirSink{"
                + location
                + ", "
                + plan
                + ", "
                + writeMode
                + (compactInJob ? ", compacting" : "")
                + "}";
    }
}
