package io.weir.service;

import io.weir.BucketLayout;
import io.weir.CommitKind;
import io.weir.Compaction;
import io.weir.CompactionResult;
import io.weir.DataFile;
import io.weir.DataFilePaths;
import io.weir.FileGroupId;
import io.weir.FileKind;
import io.weir.ScanTask;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.WriterLease;
import io.weir.base.BaseFileInfo;
import io.weir.base.BaseFileWriteOptions;
import io.weir.base.BaseFileWriter;
import io.weir.commit.CommitLog;
import io.weir.commit.CommitRequest;
import io.weir.data.BinaryRow;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.exceptions.ValidationException;
import io.weir.options.RunFormat;
import io.weir.read.FileGroupReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The {@link Compaction}: per file group, reads the merged rows of all its files and writes them as
 * base files of about {@code target-file-size}, sorted by key (a large group becomes several files
 * with ascending, disjoint key ranges); then one COMPACT commit replaces the inputs. The new base
 * files take the greatest sequence of their inputs, so logs committed meanwhile stay newer.
 *
 * <p>Append-only groups are bin-packed instead: only their log files and undersized base files
 * (below 3/4 of the target) are read, concatenated and cut into files of the target size, so at
 * most one undersized file per group remains; files of about the target size are never rewritten.
 */
public final class CompactionImpl implements Compaction {
    /** Rows written per call of {@link #copyRows}: well below the JIT's loop threshold. */
    private static final int ROWS_PER_CALL = 1024;

    private final Table table;
    private final CommitLog log;
    private boolean full;
    private boolean wholeGroups;
    private int minLogFiles;
    private Predicate<FileGroupId> groups = g -> true;
    private Set<String> inFlight = Set.of();
    private boolean newestRunsOnly;
    private final CompactionLease lease;

    public CompactionImpl(Table table, CommitLog log) {
        this.table = table;
        this.log = log;
        this.lease = new CompactionLease(table.writerLeases(), log.clock());
        this.minLogFiles = table.options().compactionMaxLogFiles();
    }

    @Override
    public Compaction full() {
        this.full = true;
        return this;
    }

    @Override
    public Compaction wholeGroups() {
        this.wholeGroups = true;
        return this;
    }

    @Override
    public Compaction minLogFiles(int count) {
        this.minLogFiles = count;
        return this;
    }

    @Override
    public Compaction fileGroups(Predicate<FileGroupId> newGroups) {
        this.groups = newGroups;
        return this;
    }

    @Override
    public Compaction around(Set<String> filesInFlight) {
        this.inFlight = Set.copyOf(filesInFlight);
        return this;
    }

    @Override
    public Compaction newestRunsOnly() {
        this.newestRunsOnly = true;
        return this;
    }

    @Override
    public List<ScanTask> plan() {
        return new CompactionPlanner(
                        table, full, wholeGroups, minLogFiles, groups, inFlight, newestRunsOnly)
                .plan();
    }

    @Override
    public CompactionResult execute() {
        List<ScanTask> tasks = plan();
        if (tasks.isEmpty()) {
            return null;
        }
        List<DataFile> written = new ArrayList<>();
        try {
            for (ScanTask task : tasks) {
                written.addAll(rewrite(task));
            }
        } catch (RuntimeException e) {
            abort(written);
            throw e;
        }
        return commit(tasks, written);
    }

    @Override
    public List<DataFile> rewriteAll(
            List<ScanTask> tasks, int threads, BiConsumer<ScanTask, List<DataFile>> onRewritten)
            throws InterruptedException {
        return GroupRewrites.run(this, table.location(), tasks, threads, onRewritten);
    }

    @Override
    public WriterLease lease() {
        return lease.hold();
    }

    @Override
    public Compaction shareLease(WriterLease shared) {
        lease.share(shared);
        return this;
    }

    @Override
    public void abort(List<DataFile> outputs) {
        try {
            deleteQuietly(outputs);
        } finally {
            lease.release();
        }
    }

    @Override
    public CompactionResult commit(List<ScanTask> tasks, List<DataFile> outputs) {
        CommitRequest.Builder request =
                CommitRequest.builder(CommitKind.COMPACT).verifyAddedFiles();
        int removed = 0;
        long records = 0;
        try {
            for (ScanTask task : tasks) {
                for (DataFile f : task.files()) {
                    request.remove(f.path());
                    removed++;
                }
            }
            for (DataFile f : outputs) {
                records += f.recordCount();
            }
            request.add(outputs);
            lease.renewIfDue();
            long commitId = log.commit(request.build()).commit().id();
            return new CompactionResult(commitId, tasks.size(), removed, outputs.size(), records);
        } catch (CommitStateUnknownException e) {
            throw e; // the files may be committed: keep them
        } catch (RuntimeException e) {
            deleteUnlessLive(outputs);
            throw e;
        } finally {
            // Committed or not, the outputs are no longer in flight: referenced, or orphans.
            lease.release();
        }
    }

    /**
     * Deletes the outputs of a failed commit, except any that a commit references: an engine that
     * retries a commit that had landed (a task restarted after committing) gets a conflict, and
     * must not delete the files of the earlier, successful attempt.
     */
    private void deleteUnlessLive(List<DataFile> outputs) {
        Set<String> live = new HashSet<>();
        try {
            table.refresh();
            table.currentSnapshot().files().forEach(f -> live.add(f.path()));
        } catch (RuntimeException e) {
            return; // cannot tell: leave them to orphan removal
        }
        deleteQuietly(outputs.stream().filter(f -> !live.contains(f.path())).toList());
    }

    /**
     * Writes one planned task's merged rows as base files, not yet committed. For the newest runs
     * of a group ({@link #plan()} of an incremental compaction), keys whose merged record is a
     * retraction go to one log file instead, and with {@code compaction.run-format} 'log' every key
     * does; all outputs keep the greatest sequence merged.
     */
    @Override
    public List<DataFile> rewrite(ScanTask task) {
        TableMetadata metadata = table.metadata();
        // Output is written with this schema: a newer file's columns would be lost.
        for (DataFile f : task.files()) {
            ValidationException.check(
                    f.schemaId() <= metadata.schemaId(),
                    "Cannot compact file group %s of table %s: file %s was written with schema %s,"
                            + " newer than the schema %s this compaction writes; refresh the table",
                    task.fileGroup(),
                    table.location(),
                    f.path(),
                    f.schemaId(),
                    metadata.schemaId());
        }
        // Before the first output file: orphan removal keeps the outputs until the commit.
        lease.hold();
        long sequence = task.files().stream().mapToLong(DataFile::sequence).max().orElse(0);
        // The newest runs of a group (incremental compaction) keep their retractions, which still
        // hide older rows: in a log file next to the base files, with the same sequence; with
        // compaction.run-format 'log', every merged record goes there.
        RunLog runLog =
                metadata.schema().hasPrimaryKey() && !coversGroup(task)
                        ? new RunLog(
                                table,
                                metadata,
                                task.fileGroup(),
                                sequence,
                                metadata.options().compactionRunFormat() == RunFormat.LOG)
                        : null;
        long target = metadata.options().targetFileSize();
        // Pages of at most target / 64: the size estimate that cuts files counts the open pages
        // uncompressed, so small pages keep files close to the target.
        int pageSize =
                (int)
                        Math.max(
                                8 << 10,
                                Math.min(BaseFileWriteOptions.DEFAULT_PAGE_SIZE, target / 64));
        BaseFileWriteOptions options =
                BaseFileWriteOptions.of(metadata.options()).withPageSize(pageSize);
        String dir =
                DataFilePaths.groupDirectory(
                        table.schema(), task.fileGroup().partition(), task.fileGroup().bucket());
        List<DataFile> outputs = new ArrayList<>();
        BaseFileWriter writer = null;
        String relative = null;
        try (RowReader rows = FileGroupReader.open(table, metadata, task.files(), runLog != null)) {
            boolean more = rows.next();
            if (runLog != null && runLog.takesAll()) {
                while (more) {
                    more = runLog.addRows(rows);
                }
            }
            while (more) {
                if (runLog != null && isRetraction(rows.row())) {
                    runLog.add(rows.row());
                    more = rows.next();
                    continue;
                }
                if (writer == null) {
                    lease.renewIfDue();
                    relative = DataFilePaths.newBaseFile(dir);
                    writer =
                            new BaseFileWriter(
                                    table.io()
                                            .newOutputFile(
                                                    DataFilePaths.resolve(
                                                            table.location(), relative)),
                                    metadata.schema(),
                                    options);
                }
                more = copyRows(rows, writer, target, runLog);
                if (writer.estimatedSize() >= target) {
                    outputs.add(
                            toDataFile(
                                    writer.close(),
                                    relative,
                                    task.fileGroup(),
                                    sequence,
                                    metadata));
                    writer = null;
                }
            }
            if (writer != null) {
                outputs.add(
                        toDataFile(writer.close(), relative, task.fileGroup(), sequence, metadata));
                writer = null;
            }
            if (runLog != null && runLog.count() > 0) {
                outputs.add(runLog.close());
            }
            return keepLayout(outputs, task, metadata);
        } catch (RuntimeException e) {
            if (writer != null) {
                writer.abort();
                deleteQuietly(relative);
            }
            if (runLog != null) {
                runLog.abort();
            }
            deleteQuietly(outputs);
            throw e;
        }
    }

    private static boolean isRetraction(BinaryRow row) {
        return RowKind.isRetraction(row.bytes()[row.offset()]);
    }

    /**
     * Whether a task holds every file its group had at the task's snapshot: then its rows are the
     * whole group, and base files (live rows only) can replace it. Otherwise it is the group's
     * newest runs, whose merge must keep retractions. If the snapshot cannot be read any more, this
     * says no: keeping retractions is correct for any task, dropping them only for a whole group.
     */
    private boolean coversGroup(ScanTask task) {
        List<DataFile> all;
        try {
            Snapshot current = table.currentSnapshot();
            Snapshot at =
                    current.id() == task.snapshotId() ? current : table.snapshot(task.snapshotId());
            all = at.fileGroups().get(task.fileGroup());
        } catch (RuntimeException e) {
            return false;
        }
        if (all == null) {
            return false;
        }
        Set<String> paths = new HashSet<>();
        task.files().forEach(f -> paths.add(f.path()));
        for (DataFile f : all) {
            if (!paths.contains(f.path())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes the reader's current row and the rows after it until the writer reaches {@code target}
     * bytes, {@link #ROWS_PER_CALL} rows are written or the reader ends; returns whether the reader
     * has a current row not yet written. The rewrite is cut into these calls so that the JIT
     * compiles its loop once, as a method that is called often, instead of replacing a long-running
     * loop on the stack and then compiling the method again for its next call: two compilations of
     * the whole write path inlined (JFR: 0.5 s and 0.4 s of C2 in a schema2 compaction).
     */
    private static boolean copyRows(
            RowReader rows, BaseFileWriter writer, long target, RunLog runLog) {
        for (int n = 0; n < ROWS_PER_CALL; n++) {
            BinaryRow row = rows.row();
            if (runLog != null && isRetraction(row)) {
                runLog.add(row);
            } else {
                writer.write(row);
            }
            if (!rows.next()) {
                return false;
            }
            if (writer.estimatedSize() >= target) {
                return true;
            }
        }
        return true;
    }

    private static DataFile toDataFile(
            BaseFileInfo info,
            String relative,
            FileGroupId group,
            long sequence,
            TableMetadata metadata) {
        return new DataFile(
                relative,
                FileKind.BASE,
                group.partition(),
                group.bucket(),
                info.recordCount(),
                info.fileSizeInBytes(),
                sequence,
                metadata.schemaId(),
                info.minKey(),
                info.maxKey(),
                info.columnStats());
    }

    /**
     * The outputs stay in the group's bucket layout, which may differ from the option of the schema
     * they are written with (a rescaled partition, or an option changed since): they record it then
     * (docs/format.md §6.2).
     */
    private List<DataFile> keepLayout(
            List<DataFile> outputs, ScanTask task, TableMetadata metadata) {
        if (task.files().isEmpty() || !metadata.schema().hasPrimaryKey()) {
            return outputs; // rows of a table without a key are in buckets freely
        }
        int buckets = BucketLayout.of(task.files().get(0), table::metadata);
        List<DataFile> out = new ArrayList<>(outputs.size());
        for (DataFile f : outputs) {
            out.add(f.withTotalBuckets(buckets, metadata.options().bucket()));
        }
        return out;
    }

    private void deleteQuietly(List<DataFile> files) {
        for (DataFile f : files) {
            deleteQuietly(f.path());
        }
    }

    private void deleteQuietly(String relative) {
        try {
            table.io().delete(DataFilePaths.resolve(table.location(), relative));
        } catch (IOException | RuntimeException e) {
            // An orphan no commit references; the cleaner removes it.
        }
    }
}
