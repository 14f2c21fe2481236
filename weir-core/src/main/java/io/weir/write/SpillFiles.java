package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.io.LocalFileIO;
import io.weir.io.OutputFile;
import io.weir.io.PositionOutputStream;
import io.weir.log.LogFileReader;
import io.weir.log.LogFileWriter;
import io.weir.log.LogWriteBuffers;
import io.weir.log.LogWriterOptions;
import io.weir.options.LogCodec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The temporary files of one bulk writer: sorted runs ({@link SpillRun}) in a directory of its own
 * under the spill directory, on the local disk whatever the table's file system. A run is deleted
 * as soon as it is merged; {@link #close()} deletes whatever is left and the directory, after a
 * success or a failure alike.
 *
 * <p>Runs use the log file format, so every block is checksummed: a damaged spill file fails the
 * write instead of corrupting the table. LZ4 in 64 KB blocks: cheap to write and read back, and a
 * merge of many runs needs little memory per run. Blocks go straight to the file channel: no stream
 * buffer, and no sync on close, since a spill file need not survive the process.
 */
final class SpillFiles implements AutoCloseable {
    static final int BLOCK_SIZE = 64 << 10;

    // Runs are written through the page cache and read back soon: read them through it too.
    private final LocalFileIO io = new LocalFileIO(false);
    private final Path parent;
    private final String table; // the location of the table being written, for errors
    private final LogWriterOptions options;
    private final LogWriteBuffers buffers = new LogWriteBuffers(LogCodec.LZ4);
    private final KeyFields key;
    private final Set<String> files = new LinkedHashSet<>();
    private Path directory;
    private int nextId;
    private long bytesWritten;

    /**
     * @param parent the spill directory; this writer's directory is created in it on first use
     * @param key the primary key (to recompute prefixes on reading), or null
     */
    SpillFiles(Path parent, String table, int schemaId, int arity, KeyFields key) {
        this.parent = parent;
        this.table = table;
        this.options = new LogWriterOptions(schemaId, arity, LogCodec.LZ4, BLOCK_SIZE);
        this.key = key;
    }

    /** Writes all of {@code rows} as a new run. */
    SpillRun write(SortedRows rows) {
        String path = newPath();
        SpillRun run = new SpillRun(path);
        files.add(path);
        LogFileWriter writer;
        try {
            writer = new LogFileWriter(new SpillOutput(path), options, buffers);
        } catch (IOException e) {
            throw WriteErrors.cannotWrite("spill file", path, table, e);
        }
        try {
            while (rows.next()) {
                BinaryRow row = rows.row();
                writer.write(row.bytes(), row.offset(), row.sizeInBytes());
                run.add(rows.group());
            }
            run.finish(writer.close().fileSizeInBytes());
        } catch (IOException e) {
            writer.abort();
            throw WriteErrors.cannotWrite("spill file", path, table, e);
        } catch (RuntimeException e) {
            writer.abort();
            throw e;
        }
        bytesWritten += run.sizeInBytes();
        return run;
    }

    /** Reads a run back; close the rows when done. */
    SortedRows open(SpillRun run) {
        try {
            return new RunRows(
                    run, LogFileReader.open(io.newInputFile(run.path), options.arity()), key);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open spill file " + run.path, e);
        }
    }

    /** Deletes a run's file. */
    void delete(SpillRun run) {
        deleteFile(run.path);
        files.remove(run.path);
    }

    /** Bytes of spill files written so far. */
    long bytesWritten() {
        return bytesWritten;
    }

    /** The directory of this writer's spill files, or null before the first spill. */
    Path directory() {
        return directory;
    }

    /**
     * Deletes every spill file left and the directory, and releases the codec. Tries every file
     * before it throws the first failure.
     */
    @Override
    public void close() {
        buffers.close();
        UncheckedIOException failure = null;
        for (String path : files) {
            try {
                deleteFile(path);
            } catch (UncheckedIOException e) {
                failure = first(failure, e);
            }
        }
        files.clear();
        if (directory != null) {
            try {
                Files.deleteIfExists(directory);
            } catch (IOException e) {
                failure =
                        first(
                                failure,
                                new UncheckedIOException(
                                        "Cannot delete spill directory " + directory, e));
            }
            directory = null;
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static UncheckedIOException first(
            UncheckedIOException failure, UncheckedIOException e) {
        if (failure == null) {
            return e;
        }
        failure.addSuppressed(e);
        return failure;
    }

    private String newPath() {
        if (directory == null) {
            try {
                Files.createDirectories(parent);
                directory = Files.createTempDirectory(parent, "weir-bulk-");
            } catch (IOException e) {
                throw WriteErrors.cannotWrite("a spill directory in", parent.toString(), table, e);
            }
        }
        return directory.resolve("run-" + nextId++ + ".wspill").toString();
    }

    /** A new file written block by block to its channel, unsynced. */
    private record SpillOutput(String path) implements OutputFile {
        @Override
        public PositionOutputStream create() throws IOException {
            FileChannel channel =
                    FileChannel.open(
                            Path.of(path), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            return new PositionOutputStream() {
                private long position;

                @Override
                public long getPos() {
                    return position;
                }

                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
                    while (buffer.hasRemaining()) {
                        channel.write(buffer);
                    }
                    position += len;
                }

                @Override
                public void close() throws IOException {
                    channel.close();
                }
            };
        }
    }

    private static void deleteFile(String path) {
        try {
            Files.deleteIfExists(Path.of(path));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete spill file " + path, e);
        }
    }
}
