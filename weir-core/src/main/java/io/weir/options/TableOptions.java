package io.weir.options;

import io.weir.RemoveOrphanFiles;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The options of a table, declared once with their defaults and documentation, and a resolved,
 * immutable view of one table's values. Stored with the table's schema; engines (the Flink
 * connector) expose the same keys.
 */
public final class TableOptions {

    public static final ConfigOption<Integer> BUCKET =
            ConfigOption.key("bucket")
                    .intType()
                    .defaultValue(4)
                    .checking(v -> v >= 1 && v <= 32768, "must be between 1 and 32768")
                    .withDescription(
                            "Number of buckets per partition. A record's bucket is the Weir key hash"
                                    + " of its primary key modulo this number (docs/format.md); each"
                                    + " bucket of each partition is one file group.");

    public static final ConfigOption<MergeEngine> MERGE_ENGINE =
            ConfigOption.key("merge-engine")
                    .enumType(MergeEngine.class)
                    .defaultValue(MergeEngine.DEDUPLICATE)
                    .withDescription("How records with the same primary key are merged.");

    public static final ConfigOption<String> SEQUENCE_FIELD =
            ConfigOption.key("sequence.field")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A column that orders the records of one key: the record with the greatest"
                                    + " value wins, so a late record with an older value does not"
                                    + " overwrite a newer one. Without it the latest written wins.");

    public static final ConfigOption<LogCodec> LOG_CODEC =
            ConfigOption.key("log.codec")
                    .enumType(LogCodec.class)
                    .defaultValue(LogCodec.LZ4)
                    .withDescription(
                            "Compression of log file blocks. A block that it does not shrink by"
                                    + " an eighth is stored uncompressed.");

    public static final ConfigOption<MemorySize> LOG_BLOCK_SIZE =
            ConfigOption.key("log.block-size")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(1))
                    .checking(
                            v -> v.bytes() >= 4096 && v.bytes() <= (256L << 20),
                            "must be between 4 kb and 256 mb")
                    .withDescription(
                            "Uncompressed size at which a log block is closed and a new one started;"
                                    + " bounds the memory a reader needs per log file.");

    public static final ConfigOption<MemorySize> WRITE_BUFFER_SIZE =
            ConfigOption.key("write-buffer-size")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(256))
                    .checking(v -> v.bytes() >= (1L << 20), "must be at least 1 mb")
                    .withDescription(
                            "Memory of one writer for buffered rows and their sort index, shared by"
                                    + " all partitions and buckets it writes. When full, the writer"
                                    + " flushes (log files that are committed with the next commit).");

    public static final ConfigOption<MemorySize> PAGE_SIZE =
            ConfigOption.key("page-size")
                    .memoryType()
                    .defaultValue(new MemorySize(64 << 10))
                    .checking(
                            v ->
                                    v.bytes() >= 4096
                                            && v.bytes() <= (16 << 20)
                                            && Long.bitCount(v.bytes()) == 1,
                            "must be a power of two between 4 kb and 16 mb")
                    .withDescription(
                            "Size of the memory pages of the write buffer. Under G1 the rows"
                                    + " themselves go to slabs of one heap region"
                                    + " (docs/write-buffer.md); the index and smaller budgets use"
                                    + " pages.");

    public static final ConfigOption<Boolean> WRITE_ONLY =
            ConfigOption.key("write-only")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "If true, the ingestion job never compacts (nor expires snapshots);"
                                    + " compaction is left to a separate job ('weir compact', the"
                                    + " Flink CompactionJob). If false, the Flink sink compacts the"
                                    + " file groups that are due in the background after its"
                                    + " commits (docs/flink-sink.md).");

    public static final ConfigOption<BaseFileCompression> FILE_COMPRESSION =
            ConfigOption.key("file.compression")
                    .enumType(BaseFileCompression.class)
                    .defaultValue(BaseFileCompression.ZSTD)
                    .withDescription(
                            "Compression of Parquet base files. A column chunk is stored"
                                    + " uncompressed where compressing its first page of plain or"
                                    + " delta-encoded values saves less than an eighth.");

    public static final ConfigOption<MemorySize> TARGET_FILE_SIZE =
            ConfigOption.key("target-file-size")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(128))
                    .checking(v -> v.bytes() >= (1L << 20), "must be at least 1 mb")
                    .withDescription(
                            "Target size of a base file written by compaction or bulk insert.");

    public static final ConfigOption<Boolean> FILE_DELTA_ENCODING =
            ConfigOption.key("file.delta-encoding")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether base files store an integer, date, time, timestamp or"
                                    + " compact decimal column DELTA_BINARY_PACKED where, on the"
                                    + " file's sampled rows, that takes at most 7/8 of its plain size"
                                    + " (a mostly distinct column) or no more than its dictionary (any"
                                    + " other) (docs/format.md §5.2). false: plain and dictionary"
                                    + " values only, for engines"
                                    + " that read base files directly with a Parquet reader that"
                                    + " decodes no other (Flink's own parquet format, Spark's"
                                    + " vectorized reader before 3.3).");

    public static final ConfigOption<MemorySize> FILE_ROW_GROUP_SIZE =
            ConfigOption.key("file.row-group-size")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(32))
                    .checking(
                            v -> v.bytes() >= (1L << 20) && v.bytes() <= (1L << 30),
                            "must be between 1 mb and 1 gb")
                    .withDescription(
                            "Buffered size at which a Parquet row group of a base file is closed."
                                    + " A writer of a base file (compaction, bulk insert) holds"
                                    + " about this much memory for its pages, and a reader the"
                                    + " column chunks of one row group; larger row groups mean"
                                    + " fewer of them per file, each with its own statistics and"
                                    + " dictionaries (docs/performance.md has the measured"
                                    + " trade-off).");

    public static final ConfigOption<Integer> COMPACTION_MAX_LOG_FILES =
            ConfigOption.key("compaction.max-log-files")
                    .intType()
                    .defaultValue(5)
                    .checking(v -> v >= 1, "must be at least 1")
                    .withDescription(
                            "A keyed file group is due for compaction when it has this many"
                                    + " sorted runs after its base (each log file; the base files"
                                    + " of one bulk insert or one incremental compaction count"
                                    + " once), or its logs hold compaction.max-log-bytes; an"
                                    + " append-only group, this many small files. Incremental"
                                    + " compaction leaves it with fewer sorted runs after its base.");

    public static final ConfigOption<Integer> COMPACTION_SIZE_RATIO =
            ConfigOption.key("compaction.size-ratio")
                    .intType()
                    .defaultValue(1)
                    .checking(v -> v >= 0 && v <= 10_000, "must be between 0 and 10000")
                    .withDescription(
                            "Percent. Incremental compaction of a due file group (not a full one)"
                                    + " merges its newest sorted runs, from the newest, while the"
                                    + " runs taken so far hold at least 100 / (100 + this) of the"
                                    + " records of the next older run; the merged run takes the"
                                    + " place of the runs it replaces (docs/table-services.md,"
                                    + " \"Incremental compaction\").");

    public static final ConfigOption<Integer> COMPACTION_MAX_SIZE_AMPLIFICATION_PERCENT =
            ConfigOption.key("compaction.max-size-amplification-percent")
                    .intType()
                    .defaultValue(200)
                    .checking(v -> v >= 0, "must be at least 0")
                    .withDescription(
                            "Percent. A due file group is rewritten whole (into base files) when"
                                    + " the records of its runs newer than the oldest reach this"
                                    + " share of the oldest run's records; otherwise only its"
                                    + " newest runs are merged. 0: every due group is rewritten"
                                    + " whole.");

    public static final ConfigOption<RunFormat> COMPACTION_RUN_FORMAT =
            ConfigOption.key("compaction.run-format")
                    .enumType(RunFormat.class)
                    .defaultValue(RunFormat.LOG)
                    .withDescription(
                            "The files of the sorted run into which incremental compaction merges"
                                    + " a group's newest runs: 'log', one row log file (less"
                                    + " compaction CPU), or 'parquet', base files and a log of the"
                                    + " retractions (fewer bytes written and stored;"
                                    + " docs/performance.md has the measured trade-off). A rewrite"
                                    + " of the whole group always writes Parquet.");

    public static final ConfigOption<MemorySize> COMPACTION_MAX_LOG_BYTES =
            ConfigOption.key("compaction.max-log-bytes")
                    .memoryType()
                    .noDefaultValue()
                    .checking(v -> v.bytes() >= 1, "must be at least 1 b")
                    .withDescription(
                            "A file group is also due for compaction when its log files hold this"
                                    + " many bytes. Unset: only the log count counts.");

    public static final ConfigOption<Integer> COMPACTION_FULL_DELTA_COMMITS =
            ConfigOption.key("compaction.full.delta-commits")
                    .intType()
                    .noDefaultValue()
                    .checking(v -> v >= 1, "must be at least 1")
                    .withDescription(
                            "In-job compaction: after this many commits of the ingestion job since"
                                    + " its last full round, compact every file group that has a log"
                                    + " file, however few (within the round budget). Unset: never.");

    public static final ConfigOption<Duration> COMPACTION_FULL_INTERVAL =
            ConfigOption.key("compaction.full.interval")
                    .durationType()
                    .noDefaultValue()
                    .checking(v -> v.toMillis() >= 1, "must be positive")
                    .withDescription(
                            "In-job compaction: when this much time passed since the job's last"
                                    + " full round (or its start), the next round compacts every file"
                                    + " group that has a log file. Unset: never.");

    public static final ConfigOption<Integer> COMPACTION_STALL_RUNS =
            ConfigOption.key("compaction.stall-runs")
                    .intType()
                    .noDefaultValue()
                    .checking(v -> v >= 2, "must be at least 2")
                    .withDescription(
                            "In-job compaction, back-pressure: a writer about to hand on a file"
                                    + " for a keyed file group that already holds this many sorted"
                                    + " runs after its base waits at the checkpoint until the job's"
                                    + " compaction brings the group below it (at most"
                                    + " compaction.stall-timeout), so the runs a reader merges stay"
                                    + " bounded when compaction falls behind. Must be greater than"
                                    + " compaction.max-log-files. Unset: twice"
                                    + " compaction.max-log-files.");

    public static final ConfigOption<Duration> COMPACTION_STALL_TIMEOUT =
            ConfigOption.key("compaction.stall-timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(1))
                    .checking(v -> !v.isNegative(), "must not be negative")
                    .withDescription(
                            "In-job compaction: the longest a writer waits at one checkpoint for"
                                    + " compaction (compaction.stall-runs); then it hands its files"
                                    + " on anyway and logs a warning. 0 s: writers never wait.");

    public static final ConfigOption<Integer> COMPACTION_ROUND_MAX_FILE_GROUPS =
            ConfigOption.key("compaction.round.max-file-groups")
                    .intType()
                    .defaultValue(64)
                    .checking(v -> v >= 1, "must be at least 1")
                    .withDescription(
                            "In-job compaction: the most file groups one round compacts (those"
                                    + " with the most log files first); the rest wait for the next"
                                    + " round. One round runs at a time and commits once.");

    public static final ConfigOption<MemorySize> COMPACTION_ROUND_MAX_BYTES =
            ConfigOption.key("compaction.round.max-bytes")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(2048))
                    .checking(v -> v.bytes() >= 1, "must be at least 1 b")
                    .withDescription(
                            "In-job compaction: the most input bytes one round reads; a round"
                                    + " always takes at least one due file group for each"
                                    + " compaction thread (compaction.threads), whatever their"
                                    + " bytes.");

    public static final ConfigOption<Integer> COMPACTION_THREADS =
            ConfigOption.key("compaction.threads")
                    .intType()
                    .defaultValue(2)
                    .checking(v -> v >= 1 && v <= 64, "must be between 1 and 64")
                    .withDescription(
                            "Threads that rewrite file groups in parallel: those of an in-job"
                                    + " compaction round (next to the writers), and by default"
                                    + " those of weir compact.");

    public static final ConfigOption<Integer> METADATA_CHECKPOINT_INTERVAL =
            ConfigOption.key("metadata.checkpoint-interval")
                    .intType()
                    .defaultValue(50)
                    .checking(v -> v >= 1, "must be at least 1")
                    .withDescription(
                            "Every this many commits a checkpoint of the full table state is"
                                    + " written, so loading a table reads one checkpoint and at most"
                                    + " this many commits.");

    public static final ConfigOption<Integer> COMMIT_MAX_RETRIES =
            ConfigOption.key("commit.max-retries")
                    .intType()
                    .defaultValue(10)
                    .checking(v -> v >= 0, "must be at least 0")
                    .withDescription(
                            "How often a commit that lost a race with a concurrent commit is retried"
                                    + " before it fails. A commit first tries on the state its"
                                    + " table object knows, without reading the table's latest"
                                    + " commit; if that state is behind, the lost first attempt is"
                                    + " not counted.");

    public static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED_MIN =
            ConfigOption.key("snapshot.num-retained.min")
                    .intType()
                    .defaultValue(10)
                    .checking(v -> v >= 1, "must be at least 1")
                    .withDescription(
                            "Snapshot expiry never leaves fewer than this many of the latest commits"
                                    + " (time travel targets), whatever their age; the latest commit"
                                    + " is always retained. See docs/table-services.md.");

    public static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED_MAX =
            ConfigOption.key("snapshot.num-retained.max")
                    .intType()
                    .defaultValue(Integer.MAX_VALUE)
                    .checking(v -> v >= 1, "must be at least 1")
                    .withDescription(
                            "Snapshot expiry expires the oldest snapshots, however young, while more"
                                    + " than this many commits are retained. Must be at least"
                                    + " snapshot.num-retained.min, which wins over it; reader leases"
                                    + " win over both.");

    public static final ConfigOption<Duration> SNAPSHOT_TIME_RETAINED =
            ConfigOption.key("snapshot.time-retained")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "Snapshot expiry keeps every snapshot that was the table's latest at some"
                                    + " time within this duration before now: snapshot N expires by"
                                    + " age only once commit N + 1 is older than this. So time travel"
                                    + " to any time within it, and a batch read shorter than it, work"
                                    + " without a lease. Bounded by snapshot.num-retained.min and"
                                    + " .max.");

    public static final ConfigOption<Boolean> SNAPSHOT_EXPIRE_IN_JOB =
            ConfigOption.key("snapshot.expire.in-job")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "If true, an ingestion job that compacts (write-only false) also"
                                    + " expires snapshots, after its commits, in the background (at"
                                    + " most one expiry at a time). Off by default: run one expiry per"
                                    + " table, e.g. 'weir clean'.");

    public static final ConfigOption<Duration> ORPHAN_OLDER_THAN =
            ConfigOption.key("orphan.older-than")
                    .durationType()
                    .defaultValue(Duration.ofDays(1))
                    .checking(
                            v -> v.compareTo(RemoveOrphanFiles.MIN_AGE) >= 0,
                            "must be at least 1 min")
                    .withDescription(
                            "Orphan removal deletes an unreferenced file only if it was last modified"
                                    + " longer ago than this, so that files of writes in flight survive."
                                    + " Must exceed the longest time from writing a file to committing"
                                    + " it (for Flink: a checkpoint, or a restore from an old one).");

    /** Every table option, by key. */
    public static final Map<String, ConfigOption<?>> ALL =
            index(
                    BUCKET,
                    MERGE_ENGINE,
                    SEQUENCE_FIELD,
                    LOG_CODEC,
                    LOG_BLOCK_SIZE,
                    WRITE_BUFFER_SIZE,
                    PAGE_SIZE,
                    WRITE_ONLY,
                    FILE_COMPRESSION,
                    FILE_DELTA_ENCODING,
                    FILE_ROW_GROUP_SIZE,
                    TARGET_FILE_SIZE,
                    COMPACTION_MAX_LOG_FILES,
                    COMPACTION_MAX_LOG_BYTES,
                    COMPACTION_SIZE_RATIO,
                    COMPACTION_MAX_SIZE_AMPLIFICATION_PERCENT,
                    COMPACTION_RUN_FORMAT,
                    COMPACTION_FULL_DELTA_COMMITS,
                    COMPACTION_FULL_INTERVAL,
                    COMPACTION_STALL_RUNS,
                    COMPACTION_STALL_TIMEOUT,
                    COMPACTION_ROUND_MAX_FILE_GROUPS,
                    COMPACTION_ROUND_MAX_BYTES,
                    COMPACTION_THREADS,
                    METADATA_CHECKPOINT_INTERVAL,
                    COMMIT_MAX_RETRIES,
                    SNAPSHOT_NUM_RETAINED_MIN,
                    SNAPSHOT_NUM_RETAINED_MAX,
                    SNAPSHOT_TIME_RETAINED,
                    SNAPSHOT_EXPIRE_IN_JOB,
                    ORPHAN_OLDER_THAN);

    private final Map<String, String> raw;

    /** Parsed values by key (per-field options under their own keys). */
    private final Map<String, Object> values;

    private TableOptions(Map<String, String> raw) {
        this.raw = Collections.unmodifiableMap(new TreeMap<>(raw));
        Map<String, Object> parsed = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : this.raw.entrySet()) {
            ConfigOption<?> option = option(e.getKey());
            if (option == null) {
                throw new IllegalArgumentException(
                        "Unknown table option '"
                                + e.getKey()
                                + "'. Valid options: "
                                + String.join(", ", ALL.keySet()));
            }
            parsed.put(e.getKey(), option.parse(e.getValue()));
        }
        this.values = parsed;
        Integer stallRuns = get(COMPACTION_STALL_RUNS);
        if (stallRuns != null && stallRuns <= compactionMaxLogFiles()) {
            throw new IllegalArgumentException(
                    "Invalid options: '"
                            + COMPACTION_STALL_RUNS.key()
                            + "' ("
                            + stallRuns
                            + ") must be greater than '"
                            + COMPACTION_MAX_LOG_FILES.key()
                            + "' ("
                            + compactionMaxLogFiles()
                            + "): writers would wait for a compaction that is not due");
        }
        if (snapshotNumRetainedMax() < snapshotNumRetainedMin()) {
            throw new IllegalArgumentException(
                    "Invalid options: '"
                            + SNAPSHOT_NUM_RETAINED_MAX.key()
                            + "' ("
                            + snapshotNumRetainedMax()
                            + ") must be at least '"
                            + SNAPSHOT_NUM_RETAINED_MIN.key()
                            + "' ("
                            + snapshotNumRetainedMin()
                            + ")");
        }
    }

    /** Validates the given options: unknown keys and invalid values fail with a clear message. */
    public static TableOptions of(Map<String, String> options) {
        return new TableOptions(options);
    }

    public static TableOptions defaults() {
        return new TableOptions(Map.of());
    }

    /** The value of an option, or its default. */
    @SuppressWarnings("unchecked")
    public <T> T get(ConfigOption<T> option) {
        Object v = values.get(option.key());
        return v != null ? (T) v : option.defaultValue();
    }

    /** The options as given (only those set explicitly). */
    public Map<String, String> toMap() {
        return raw;
    }

    /** A copy with the given options changed (and validated). */
    public TableOptions with(Map<String, String> changes) {
        Map<String, String> merged = new TreeMap<>(raw);
        merged.putAll(changes);
        return new TableOptions(merged);
    }

    public int bucket() {
        return get(BUCKET);
    }

    public MergeEngine mergeEngine() {
        return get(MERGE_ENGINE);
    }

    /** The ordering field, or null. */
    public String sequenceField() {
        return get(SEQUENCE_FIELD);
    }

    public boolean ignoreDelete() {
        return get(MergeOptions.IGNORE_DELETE);
    }

    /**
     * The values of one per-field option template ({@link MergeOptions}), by the field part of
     * their keys, in key order.
     */
    @SuppressWarnings("unchecked")
    public <T> Map<String, T> fieldValues(ConfigOption<T> template) {
        Map<String, T> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : values.entrySet()) {
            if (MergeOptions.matches(e.getKey(), template)) {
                out.put(MergeOptions.field(e.getKey()), (T) e.getValue());
            }
        }
        return out;
    }

    public LogCodec logCodec() {
        return get(LOG_CODEC);
    }

    public int logBlockSize() {
        return (int) get(LOG_BLOCK_SIZE).bytes();
    }

    public long writeBufferSize() {
        return get(WRITE_BUFFER_SIZE).bytes();
    }

    public int pageSize() {
        return (int) get(PAGE_SIZE).bytes();
    }

    public boolean writeOnly() {
        return get(WRITE_ONLY);
    }

    public BaseFileCompression fileCompression() {
        return get(FILE_COMPRESSION);
    }

    /** Whether base files may hold DELTA_BINARY_PACKED integer columns. */
    public boolean fileDeltaEncoding() {
        return get(FILE_DELTA_ENCODING);
    }

    /** The size at which a row group of a base file is closed. */
    public long fileRowGroupSize() {
        return get(FILE_ROW_GROUP_SIZE).bytes();
    }

    public long targetFileSize() {
        return get(TARGET_FILE_SIZE).bytes();
    }

    public int compactionMaxLogFiles() {
        return get(COMPACTION_MAX_LOG_FILES);
    }

    /** Log bytes at which a file group is due for compaction, or -1 (unset). */
    public long compactionMaxLogBytes() {
        MemorySize v = get(COMPACTION_MAX_LOG_BYTES);
        return v == null ? -1 : v.bytes();
    }

    /** The size ratio of incremental compaction, in percent. */
    /** {@link #COMPACTION_STALL_RUNS}, or twice {@link #COMPACTION_MAX_LOG_FILES} when unset. */
    public int compactionStallRuns() {
        Integer v = get(COMPACTION_STALL_RUNS);
        return v != null ? v : 2 * compactionMaxLogFiles();
    }

    public Duration compactionStallTimeout() {
        return get(COMPACTION_STALL_TIMEOUT);
    }

    public int compactionSizeRatio() {
        return get(COMPACTION_SIZE_RATIO);
    }

    /** The delta records, in percent of the oldest run's, that make a group rewritten whole. */
    public int compactionMaxSizeAmplificationPercent() {
        return get(COMPACTION_MAX_SIZE_AMPLIFICATION_PERCENT);
    }

    /** The files of an incremental compaction's merged run. */
    public RunFormat compactionRunFormat() {
        return get(COMPACTION_RUN_FORMAT);
    }

    /** Commits between full in-job compaction rounds, or -1 (unset). */
    public int compactionFullDeltaCommits() {
        Integer v = get(COMPACTION_FULL_DELTA_COMMITS);
        return v == null ? -1 : v;
    }

    /** Time between full in-job compaction rounds, or null (unset). */
    public Duration compactionFullInterval() {
        return get(COMPACTION_FULL_INTERVAL);
    }

    public int compactionRoundMaxFileGroups() {
        return get(COMPACTION_ROUND_MAX_FILE_GROUPS);
    }

    public long compactionRoundMaxBytes() {
        return get(COMPACTION_ROUND_MAX_BYTES).bytes();
    }

    public int compactionThreads() {
        return get(COMPACTION_THREADS);
    }

    public boolean snapshotExpireInJob() {
        return get(SNAPSHOT_EXPIRE_IN_JOB);
    }

    public int metadataCheckpointInterval() {
        return get(METADATA_CHECKPOINT_INTERVAL);
    }

    public int commitMaxRetries() {
        return get(COMMIT_MAX_RETRIES);
    }

    public int snapshotNumRetainedMin() {
        return get(SNAPSHOT_NUM_RETAINED_MIN);
    }

    public int snapshotNumRetainedMax() {
        return get(SNAPSHOT_NUM_RETAINED_MAX);
    }

    public Duration snapshotTimeRetained() {
        return get(SNAPSHOT_TIME_RETAINED);
    }

    public Duration orphanOlderThan() {
        return get(ORPHAN_OLDER_THAN);
    }

    /** A Markdown table of every option (docs/options.md is generated from this). */
    public static String describe() {
        return ConfigOption.describe(ALL.values());
    }

    private static Map<String, ConfigOption<?>> index(ConfigOption<?>... options) {
        Map<String, ConfigOption<?>> map = new LinkedHashMap<>();
        for (ConfigOption<?> o : options) {
            map.put(o.key(), o);
        }
        // Then the options declared apart, by concern.
        for (ConfigOption<?> o : MergeOptions.ALL) {
            map.put(o.key(), o);
        }
        for (ConfigOption<?> o : PartitionOptions.ALL) {
            map.put(o.key(), o);
        }
        return Collections.unmodifiableMap(map);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableOptions other && raw.equals(other.raw);
    }

    @Override
    public int hashCode() {
        return raw.hashCode();
    }

    @Override
    public String toString() {
        return raw.toString();
    }

    /** The option of a key: a declared one, or a per-field one under that key; null if unknown. */
    public static ConfigOption<?> option(String key) {
        ConfigOption<?> option = ALL.get(key);
        return option != null ? option : MergeOptions.fieldOption(key);
    }

    /**
     * Whether a key is a table option's: a declared one, or a per-field one ({@code fields.*},
     * {@link MergeOptions}), whose suffix {@link #of} checks.
     */
    public static boolean isTableOption(String key) {
        return ALL.containsKey(key) || key.startsWith(MergeOptions.FIELDS_PREFIX);
    }

    /** The keys of all options, for error messages. */
    public static List<String> keys() {
        return List.copyOf(ALL.keySet());
    }
}
