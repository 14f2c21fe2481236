package io.weir;

import io.weir.base.BaseFileInfo;
import io.weir.base.BaseFileWriteOptions;
import io.weir.base.BaseFileWriter;
import io.weir.commit.CommitRequest;
import io.weir.data.BinaryRow;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.read.DataFileReaders;
import io.weir.read.FileGroupReader;
import io.weir.read.RowReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The {@link Compaction}: per file group, reads the merged rows of all its files and writes them as
 * base files of about {@code target-file-size}, sorted by key; then one COMPACT commit replaces the
 * inputs. The new base files take the greatest sequence of their inputs, so logs committed
 * meanwhile stay newer.
 */
final class BaseCompaction implements Compaction {
    private final BaseTable table;
    private boolean full;
    private int minLogFiles;
    private final long maxLogBytes;
    private Predicate<FileGroupId> groups = g -> true;

    BaseCompaction(BaseTable table) {
        this.table = table;
        this.minLogFiles = table.options().compactionMaxLogFiles();
        this.maxLogBytes = table.options().compactionMaxLogBytes();
    }

    @Override
    public Compaction full() {
        this.full = true;
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
    public List<ScanTask> plan() {
        table.refresh();
        Snapshot snapshot = table.currentSnapshot();
        List<ScanTask> tasks = new ArrayList<>();
        snapshot.fileGroups()
                .forEach(
                        (group, files) -> {
                            ScanTask task = new ScanTask(snapshot.id(), group, files);
                            List<DataFile> deltas = task.deltaFiles();
                            long deltaBytes = 0;
                            for (DataFile f : deltas) {
                                deltaBytes += f.sizeInBytes();
                            }
                            boolean due =
                                    full
                                            ? !deltas.isEmpty() || files.size() > 1
                                            : deltas.size() >= minLogFiles
                                                    || (maxLogBytes > 0
                                                            && !deltas.isEmpty()
                                                            && deltaBytes >= maxLogBytes);
                            if (due && groups.test(group)) {
                                tasks.add(task);
                            }
                        });
        return tasks;
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
            deleteQuietly(written);
            throw e;
        }
        return commit(tasks, written);
    }

    @Override
    public CompactionResult commit(List<ScanTask> tasks, List<DataFile> outputs) {
        CommitRequest.Builder request = CommitRequest.builder(CommitKind.COMPACT);
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
            long commitId = table.commitLog().commit(request.build()).commit().id();
            return new CompactionResult(commitId, tasks.size(), removed, outputs.size(), records);
        } catch (CommitStateUnknownException e) {
            throw e; // the files may be committed: keep them
        } catch (RuntimeException e) {
            deleteUnlessLive(outputs);
            throw e;
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

    /** Writes one file group's merged rows as base files; returns them (not yet committed). */
    @Override
    public List<DataFile> rewrite(ScanTask task) {
        TableMetadata metadata = table.metadata();
        long sequence = task.files().stream().mapToLong(DataFile::sequence).max().orElse(0);
        long target = metadata.options().targetFileSize();
        BaseFileWriteOptions options =
                BaseFileWriteOptions.of(metadata.options().fileCompression());
        String dir = directory(task.fileGroup());
        List<DataFile> outputs = new ArrayList<>();
        BaseFileWriter writer = null;
        String relative = null;
        try (RowReader rows =
                FileGroupReader.open(table.io(), table.location(), metadata, task.files(), false)) {
            while (rows.next()) {
                BinaryRow row = rows.row();
                if (writer == null) {
                    relative = dir + "base-" + UUID.randomUUID() + ".parquet";
                    writer =
                            new BaseFileWriter(
                                    table.io()
                                            .newOutputFile(
                                                    DataFileReaders.join(
                                                            table.location(), relative)),
                                    metadata.schema(),
                                    options);
                }
                writer.write(row);
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
            return outputs;
        } catch (RuntimeException e) {
            if (writer != null) {
                writer.abort();
            }
            deleteQuietly(outputs);
            throw e;
        }
    }

    private String directory(FileGroupId group) {
        Schema schema = table.schema();
        String partition =
                schema.isPartitioned() ? group.partition().path(schema.partitionKeys()) + "/" : "";
        return partition + "bucket-" + group.bucket() + "/";
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

    private void deleteQuietly(List<DataFile> files) {
        for (DataFile f : files) {
            try {
                table.io().delete(DataFileReaders.join(table.location(), f.path()));
            } catch (IOException e) {
                // An orphan no commit references; the cleaner removes it.
            }
        }
    }
}
