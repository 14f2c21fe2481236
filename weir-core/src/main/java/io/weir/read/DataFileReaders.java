package io.weir.read;

import io.weir.DataFile;
import io.weir.DataFilePaths;
import io.weir.base.BaseFileReader;
import io.weir.data.BinaryRow;
import io.weir.data.RowReader;
import io.weir.exceptions.MissingFileException;
import io.weir.io.FileIO;
import io.weir.log.LogFileReader;
import io.weir.types.RowType;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.stream.IntStream;

/** Opens data files of a table as {@link RowReader}s of full table rows. */
public final class DataFileReaders {
    private DataFileReaders() {}

    /**
     * Opens a base or log file. A missing file fails naming the table and the file: a commit
     * references it, so the table is damaged.
     *
     * @param rowType the row type of the schema the file was written with ({@code
     *     file.schemaId()}); a base file's footer is verified against it
     */
    public static RowReader open(FileIO io, String location, DataFile file, RowType rowType) {
        String path = DataFilePaths.resolve(location, file.path());
        return switch (file.kind()) {
            case BASE -> base(io, path, location, file, rowType);
            case LOG -> log(io, path, location, file, rowType);
        };
    }

    private static MissingFileException missing(String location, DataFile file, Exception e) {
        return new MissingFileException(
                "Cannot read table "
                        + location
                        + ": file "
                        + file.path()
                        + " of file group "
                        + file.fileGroup()
                        + " is missing, though committed metadata references it",
                e);
    }

    /**
     * Opens a base file reading only the fields at {@code projection} of {@code rowType}: its rows
     * are of type {@code rowType.project(projection)}. {@code rowType} is the row type of the
     * file's schema ({@code file.schemaId()}), against which its footer is verified.
     */
    public static RowReader openBase(
            FileIO io, String location, DataFile file, RowType rowType, int[] projection) {
        return base(
                io,
                DataFilePaths.resolve(location, file.path()),
                location,
                file,
                rowType,
                projection);
    }

    private static RowReader base(
            FileIO io, String path, String location, DataFile file, RowType rowType) {
        return base(
                io, path, location, file, rowType, IntStream.range(0, rowType.size()).toArray());
    }

    private static RowReader base(
            FileIO io,
            String path,
            String location,
            DataFile file,
            RowType rowType,
            int[] projection) {
        BaseFileReader reader;
        try {
            reader =
                    new BaseFileReader(
                            io.newInputFile(path, file.sizeInBytes()), rowType, projection);
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof FileNotFoundException) {
                throw missing(location, file, e);
            }
            throw e;
        }
        return new RowReader() {
            @Override
            public boolean next() {
                return reader.next();
            }

            @Override
            public BinaryRow row() {
                return reader.row();
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }

    private static RowReader log(
            FileIO io, String path, String location, DataFile file, RowType rowType) {
        LogFileReader reader;
        try {
            reader = LogFileReader.open(io.newInputFile(path, file.sizeInBytes()), rowType);
        } catch (FileNotFoundException e) {
            throw missing(location, file, e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open log file " + path, e);
        }
        return new RowReader() {
            @Override
            public boolean next() {
                try {
                    return reader.next();
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot read log file " + path, e);
                }
            }

            @Override
            public BinaryRow row() {
                return reader.row();
            }

            @Override
            public void close() {
                try {
                    reader.close();
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot close log file " + path, e);
                }
            }
        };
    }
}
