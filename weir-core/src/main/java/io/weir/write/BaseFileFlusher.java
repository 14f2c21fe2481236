package io.weir.write;

import io.weir.DataFile;
import io.weir.DataFilePaths;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.base.BaseFileInfo;
import io.weir.base.BaseFileWriteOptions;
import io.weir.base.BaseFileWriter;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;
import io.weir.data.ValueStrings;
import io.weir.io.FileIO;
import io.weir.log.LogFileInfo;
import io.weir.log.LogFileWriter;
import io.weir.log.LogWriteBuffers;
import io.weir.log.LogWriterOptions;
import io.weir.types.RowType;
import io.weir.util.RowBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Writes rows in write order as sorted Parquet base files, file group after file group, one base
 * file open at a time, each closed at {@code target-file-size}; the bulk writer's output. For a
 * keyed table the rows are the winners of their keys ({@link FoldingRows}): live rows go to base
 * files, winning deletes to one log file of the group (a base file cannot hold a delete, and the
 * delete must still remove the key from the group's older files). Base files get sequence -1: the
 * commit gives all of one group the same new sequence, newer than every file before.
 */
final class BaseFileFlusher {

    private final FileIO io;
    private final String location;
    private final TableMetadata metadata;
    private final Schema schema;
    private final boolean keyed;
    private final long targetFileSize;
    private final BaseFileWriteOptions baseOptions;
    private final LogWriterOptions logOptions;
    private final LogWriteBuffers logBuffers;

    /** A copy of the last delete written: the delete log's greatest key. */
    private final RowBuffer lastDelete;

    private String writing; // the file being written, for errors

    BaseFileFlusher(FileIO io, String location, TableMetadata metadata, KeyFields key) {
        this.io = io;
        this.location = location;
        this.metadata = metadata;
        this.schema = metadata.schema();
        this.keyed = key != null;
        this.targetFileSize = metadata.options().targetFileSize();
        this.baseOptions = BaseFileWriteOptions.of(metadata.options());
        this.logOptions =
                LogWriterOptions.of(
                                metadata.schemaId(),
                                schema.rowType().size(),
                                metadata.options().logCodec())
                        .withBlockSize(metadata.options().logBlockSize());
        this.logBuffers = new LogWriteBuffers(logOptions.codec());
        this.lastDelete = new RowBuffer(logOptions.arity());
    }

    /**
     * Writes all of {@code rows}; returns the files written (not committed). On failure deletes
     * them, and the file being written, and throws.
     */
    List<DataFile> write(SortedRows rows, IntFunction<Partition> partitions) {
        List<DataFile> files = new ArrayList<>();
        Group group = null;
        try {
            while (rows.next()) {
                if (group == null || group.id != rows.group()) {
                    if (group != null) {
                        group.finish(files);
                    }
                    group = null;
                    long id = rows.group();
                    group = new Group(id, partitions.apply((int) (id >>> 32)), (int) id);
                }
                BinaryRow row = rows.row();
                if (keyed && RowKind.isRetraction(row.bytes()[row.offset()])) {
                    group.delete(row);
                } else {
                    group.write(row, files);
                }
            }
            if (group != null) {
                group.finish(files);
                group = null;
            }
            return files;
        } catch (IOException | UncheckedIOException e) {
            abort(group, files);
            throw WriteErrors.cannotWrite(
                    "file", DataFilePaths.resolve(location, writing), location, e);
        } catch (RuntimeException e) {
            abort(group, files);
            throw e;
        }
    }

    /** Releases the codec of the delete logs. */
    void close() {
        logBuffers.close();
    }

    /** Deletes written files (best effort): orphans are harmless, the cleaner removes them. */
    void delete(List<DataFile> files) {
        for (DataFile f : files) {
            deleteQuietly(f.path());
        }
    }

    private void abort(Group group, List<DataFile> files) {
        if (group != null) {
            group.abort();
        }
        delete(files);
    }

    private void deleteQuietly(String relative) {
        try {
            io.delete(DataFilePaths.resolve(location, relative));
        } catch (IOException e) {
            // An orphan; see delete().
        }
    }

    /** The open files of one file group: at most one base file, and its delete log. */
    private final class Group {
        final long id;
        final Partition partition;
        final int bucket;
        final String directory;
        BaseFileWriter base;
        String basePath;
        LogFileWriter deletes;
        String deletesPath;
        List<String> firstDeleteKey;

        Group(long id, Partition partition, int bucket) {
            this.id = id;
            this.partition = partition;
            this.bucket = bucket;
            this.directory = DataFilePaths.groupDirectory(schema, partition, bucket);
        }

        void write(BinaryRow row, List<DataFile> files) {
            if (base == null) {
                basePath = DataFilePaths.newBaseFile(directory);
                writing = basePath;
                base =
                        new BaseFileWriter(
                                io.newOutputFile(DataFilePaths.resolve(location, basePath)),
                                schema,
                                baseOptions);
            }
            writing = basePath;
            base.write(row);
            if (base.estimatedSize() >= targetFileSize) {
                closeBase(files);
            }
        }

        void delete(BinaryRow row) throws IOException {
            if (deletes == null) {
                deletesPath = DataFilePaths.newLogFile(directory);
                writing = deletesPath;
                deletes =
                        new LogFileWriter(
                                io.newOutputFile(DataFilePaths.resolve(location, deletesPath)),
                                logOptions,
                                logBuffers);
                firstDeleteKey = keyTexts(row);
            }
            writing = deletesPath;
            deletes.write(row.bytes(), row.offset(), row.sizeInBytes());
            lastDelete.set(row);
        }

        private void closeBase(List<DataFile> files) {
            writing = basePath;
            BaseFileInfo info = base.close();
            base = null;
            files.add(
                    new DataFile(
                            basePath,
                            FileKind.BASE,
                            partition,
                            bucket,
                            info.recordCount(),
                            info.fileSizeInBytes(),
                            -1,
                            metadata.schemaId(),
                            info.minKey(),
                            info.maxKey(),
                            info.columnStats()));
        }

        void finish(List<DataFile> files) throws IOException {
            if (base != null) {
                closeBase(files);
            }
            if (deletes != null) {
                writing = deletesPath;
                LogFileInfo info = deletes.close();
                deletes = null;
                files.add(
                        new DataFile(
                                deletesPath,
                                FileKind.LOG,
                                partition,
                                bucket,
                                info.recordCount(),
                                info.fileSizeInBytes(),
                                -1,
                                metadata.schemaId(),
                                firstDeleteKey,
                                keyTexts(lastDelete.row()),
                                null));
            }
        }

        void abort() {
            if (base != null) {
                base.abort();
                deleteQuietly(basePath);
            }
            if (deletes != null) {
                deletes.abort();
                deleteQuietly(deletesPath);
            }
        }
    }

    private List<String> keyTexts(BinaryRow row) {
        RowType type = schema.rowType();
        List<String> texts = new ArrayList<>();
        for (int pos : schema.primaryKeyPositions()) {
            texts.add(ValueStrings.toText(row.get(pos, type.type(pos)), type.type(pos)));
        }
        return texts;
    }
}
