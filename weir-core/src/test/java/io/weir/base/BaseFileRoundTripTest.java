package io.weir.base;

import io.weir.io.LocalFileIO;
import io.weir.options.BaseFileCompression;

import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class BaseFileRoundTripTest {
    @TempDir Path dir;
    private final LocalFileIO io = new LocalFileIO();

    static Stream<Arguments> compressionsAndSizes() {
        List<Arguments> args = new ArrayList<>();
        for (BaseFileCompression compression : BaseFileCompression.values()) {
            args.add(Arguments.of(BaseFileWriteOptions.of(compression)));
            // small pages: dictionaries fall back to plain encoding, many pages per column chunk;
            // with incompressible pages also several row groups
            args.add(Arguments.of(new BaseFileWriteOptions(compression, 4 << 20, 1024)));
        }
        return args.stream();
    }

    @ParameterizedTest
    @MethodSource("compressionsAndSizes")
    void everyTypeRoundTrips(BaseFileWriteOptions options) throws Exception {
        List<Object[]> rows = AllTypes.rows(300);
        String path = dir.resolve("base-1.parquet").toString();

        BaseFileInfo info = write(path, rows, options);

        assertThat(info.path()).isEqualTo(path);
        assertThat(info.recordCount()).isEqualTo(rows.size());
        assertThat(info.fileSizeInBytes()).isEqualTo(Files.size(Path.of(path)));
        List<List<Object>> read = new ArrayList<>();
        try (BaseFileReader reader = new BaseFileReader(io.newInputFile(path), AllTypes.ROW_TYPE)) {
            assertThat(reader.recordCount()).isEqualTo(rows.size());
            while (reader.next()) {
                assertThat(reader.row().arity()).isEqualTo(AllTypes.ROW_TYPE.size());
                read.add(AllTypes.comparable(reader.row(), AllTypes.ROW_TYPE));
            }
            assertThat(reader.next()).isFalse();
        }
        assertThat(read).hasSize(rows.size());
        if (options.compression() == BaseFileCompression.UNCOMPRESSED
                && options.rowGroupSize() < BaseFileWriteOptions.DEFAULT_ROW_GROUP_SIZE) {
            assertThat(rowGroups(path)).isGreaterThan(1);
        }
        for (int k = 0; k < rows.size(); k++) {
            assertThat(read.get(k)).as("row %d", k).isEqualTo(AllTypes.comparable(rows.get(k)));
        }
    }

    static int rowGroups(String path) throws Exception {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(Path.of(path)))) {
            return reader.getRowGroups().size();
        }
    }

    private BaseFileInfo write(String path, List<Object[]> rows, BaseFileWriteOptions options) {
        BaseFileWriter writer =
                new BaseFileWriter(io.newOutputFile(path), AllTypes.SCHEMA, options);
        for (Object[] values : rows) {
            writer.write(AllTypes.toRow(AllTypes.ROW_TYPE, values));
        }
        return writer.close();
    }
}
