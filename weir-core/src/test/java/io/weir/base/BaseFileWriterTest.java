package io.weir.base;

import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.Timestamp;
import io.weir.exceptions.ValidationException;
import io.weir.io.LocalFileIO;
import io.weir.options.BaseFileCompression;
import io.weir.types.DataTypes;
import io.weir.types.Field;
import io.weir.types.RowType;

import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BaseFileWriterTest {
    @TempDir Path dir;
    private final LocalFileIO io = new LocalFileIO();
    private final Schema schema =
            Schema.builder()
                    .column("k", DataTypes.STRING())
                    .column("v", DataTypes.INT())
                    .column("n", DataTypes.INT().notNull())
                    .primaryKey("k")
                    .build();

    @Test
    void rejectsRowsOutOfKeyOrder() {
        BaseFileWriter writer = newWriter("a.parquet");
        writer.write(row("b", 1, 1));
        assertThatThrownBy(() -> writer.write(row("a", 1, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strictly ascending primary-key order")
                .hasMessageContaining("key [a] follows [b]");
        writer.abort();
    }

    @Test
    void rejectsDuplicateKeys() {
        BaseFileWriter writer = newWriter("a.parquet");
        writer.write(row("abcdefghij", 1, 1));
        assertThatThrownBy(() -> writer.write(row("abcdefghij", 2, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strictly ascending");
        writer.abort();
    }

    @Test
    void rejectsNullInNotNullColumn() {
        BaseFileWriter writer = newWriter("a.parquet");
        assertThatThrownBy(() -> writer.write(row("a", 1, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column n is NOT NULL");
        writer.abort();
    }

    @Test
    void rejectsRowsOfAnotherArity() {
        BaseFileWriter writer = newWriter("a.parquet");
        BinaryRow narrow = BinaryRowWriter.toRow(RowType.of("k", DataTypes.STRING()), "a");
        assertThatThrownBy(() -> writer.write(narrow))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("arity 1");
        writer.abort();
    }

    @Test
    void rejectsARowTypeWithoutTheKey() {
        RowType noKey = new RowType(List.of(new Field(1, "v", DataTypes.INT())));
        assertThatThrownBy(
                        () ->
                                new BaseFileWriter(
                                        io.newOutputFile(dir.resolve("a.parquet").toString()),
                                        schema,
                                        noKey,
                                        BaseFileWriteOptions.of(BaseFileCompression.ZSTD)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("primary-key column 'k' is missing");
    }

    @Test
    void acceptsReusedRowBuffers() {
        // the caller rewrites the same buffer for every row: the writer must have copied
        // whatever it keeps (key range, dictionary entries, statistics)
        String path = dir.resolve("a.parquet").toString();
        BaseFileWriter writer = newWriter("a.parquet");
        BinaryRowWriter rows = new BinaryRowWriter(3);
        for (int i = 0; i < 50; i++) {
            rows.reset();
            rows.writeString(0, String.format("key-%03d-long-enough", i));
            rows.writeInt(1, i);
            rows.writeInt(2, -i);
            writer.write(rows.complete());
        }
        BaseFileInfo info = writer.close();

        assertThat(info.minKey()).containsExactly("key-000-long-enough");
        assertThat(info.maxKey()).containsExactly("key-049-long-enough");
        assertThat(info.columnStats().get(0).min()).isEqualTo("key-000-long-enough");
        assertThat(info.columnStats().get(0).max()).isEqualTo("key-049-long-enough");
        try (BaseFileReader reader = new BaseFileReader(io.newInputFile(path), schema.rowType())) {
            for (int i = 0; i < 50; i++) {
                assertThat(reader.next()).isTrue();
                assertThat(reader.row().getString(0))
                        .isEqualTo(String.format("key-%03d-long-enough", i));
                assertThat(reader.row().getInt(1)).isEqualTo(i);
            }
            assertThat(reader.next()).isFalse();
        }
    }

    @Test
    void refusesToOverwriteAFile() throws Exception {
        Files.writeString(dir.resolve("a.parquet"), "existing");
        assertThatThrownBy(() -> newWriter("a.parquet"))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(dir.resolve("a.parquet").toString());
        assertThat(Files.readString(dir.resolve("a.parquet"))).isEqualTo("existing");
    }

    @Test
    void closeTwiceAndWriteAfterCloseFail() {
        BaseFileWriter writer = newWriter("a.parquet");
        writer.write(row("a", 1, 1));
        writer.close();
        assertThatThrownBy(writer::close).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> writer.write(row("b", 1, 1)))
                .isInstanceOf(IllegalStateException.class);
        writer.abort(); // no-op once closed
    }

    @Test
    void timestampsOutOfTheStoredRangeAreRejectedAndTheFileStaysUsable() {
        Schema ts =
                Schema.builder()
                        .column("id", DataTypes.INT())
                        .column("t9", DataTypes.TIMESTAMP(9))
                        .column("t6", DataTypes.TIMESTAMP_LTZ(6))
                        .primaryKey("id")
                        .build();
        String path = dir.resolve("t.parquet").toString();
        BaseFileWriter writer =
                new BaseFileWriter(
                        io.newOutputFile(path),
                        ts,
                        BaseFileWriteOptions.of(BaseFileCompression.ZSTD));
        Timestamp ok = AllTypes.ts("2262-04-11T23:47:16.854775807");
        Timestamp tooLate = AllTypes.ts("2262-04-11T23:47:16.854775808");
        Timestamp tooEarly = AllTypes.ts("1677-09-21T00:12:43.145224191");
        Timestamp farFuture = Timestamp.of(LocalDateTime.MAX);

        assertThatThrownBy(
                        () -> writer.write(BinaryRowWriter.toRow(ts.rowType(), 1, tooLate, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column t9")
                .hasMessageContaining("nanoseconds");
        assertThatThrownBy(
                        () -> writer.write(BinaryRowWriter.toRow(ts.rowType(), 1, tooEarly, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column t9");
        assertThatThrownBy(
                        () -> writer.write(BinaryRowWriter.toRow(ts.rowType(), 1, null, farFuture)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column t6")
                .hasMessageContaining("microseconds");
        writer.write(BinaryRowWriter.toRow(ts.rowType(), 2, ok, null));
        assertThat(writer.close().recordCount()).isEqualTo(1);

        try (BaseFileReader reader = new BaseFileReader(io.newInputFile(path), ts.rowType())) {
            assertThat(reader.next()).isTrue();
            assertThat(reader.row().getTimestamp(1, 9)).isEqualTo(ok);
            assertThat(reader.row().isNullAt(2)).isTrue();
            assertThat(reader.next()).isFalse();
        }
    }

    @Test
    void dictionaryOnlyForColumnsOfFewDistinctValuesAcrossAndPastTheSample() throws Exception {
        // k and n: all distinct; v: 100 values in a scrambled order (deltas of up to 99 either
        // way take a bit more than the dictionary's ids) and nulls
        int rows = DictionarySample.MAX_ROWS + 2_345;
        Path file = dir.resolve("d.parquet");
        BaseFileWriter writer = newWriter("d.parquet");
        for (int i = 0; i < rows; i++) {
            writer.write(
                    row(String.format("key-%06d", i), i % 7 == 0 ? null : scrambled(i), i * 31));
        }
        assertThatThrownBy(() -> writer.write(row("0", 0, 0)))
                .hasMessageContaining("strictly ascending");
        assertThat(writer.close().recordCount()).isEqualTo(rows);

        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            List<ColumnChunkMetaData> columns = reader.getFooter().getBlocks().get(0).getColumns();
            assertThat(columns)
                    .extracting(ColumnChunkMetaData::hasDictionaryPage)
                    .containsExactly(false, true, false);
        }
        try (BaseFileReader reader =
                new BaseFileReader(io.newInputFile(file.toString()), schema.rowType())) {
            for (int i = 0; i < rows; i++) {
                assertThat(reader.next()).isTrue();
                assertThat(reader.row())
                        .isEqualTo(
                                row(
                                        String.format("key-%06d", i),
                                        i % 7 == 0 ? null : scrambled(i),
                                        i * 31));
            }
            assertThat(reader.next()).isFalse();
        }
    }

    @Test
    void aFileSmallerThanTheSampleDecidesAtClose() throws Exception {
        Path file = dir.resolve("s.parquet");
        BaseFileWriter writer = newWriter("s.parquet");
        for (int i = 0; i < 1000; i++) {
            writer.write(row(String.format("key-%06d", i), 7, i));
        }
        assertThat(writer.estimatedSize()).isPositive();
        writer.close();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            List<ColumnChunkMetaData> columns = reader.getFooter().getBlocks().get(0).getColumns();
            assertThat(columns)
                    .extracting(ColumnChunkMetaData::hasDictionaryPage)
                    .containsExactly(false, true, false);
            assertThat(reader.getFooter().getBlocks().get(0).getRowCount()).isEqualTo(1000);
        }
    }

    /**
     * A column chunk whose first page holds plain values and does not shrink by an eighth is stored
     * uncompressed; every other chunk has the table's codec, whatever its later pages hold, and a
     * dictionary-encoded chunk whatever its ids (text). Readers read both.
     */
    @ParameterizedTest
    @EnumSource(
            value = BaseFileCompression.class,
            names = {"SNAPPY", "ZSTD"})
    void columnChunksThatDoNotCompressAreStoredUncompressed(BaseFileCompression compression)
            throws Exception {
        Schema noisy =
                Schema.builder()
                        .column("k", DataTypes.BIGINT().notNull())
                        .column("text", DataTypes.STRING())
                        .column("noise", DataTypes.BYTES())
                        .column("late", DataTypes.BYTES())
                        .primaryKey("k")
                        .build();
        Random random = new Random(11);
        int rows = 20_000;
        List<Object[]> written = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            // random bytes, and each value's 4-byte length: nothing a codec saves an eighth of
            byte[] noise = new byte[64];
            random.nextBytes(noise);
            // distinct (so plain, not dictionary-encoded) and compressible in the first chunk's
            // first pages, random after them
            byte[] late = String.format("%064d", i).getBytes(StandardCharsets.US_ASCII);
            if (i >= 500) {
                random.nextBytes(late);
            }
            // 200 values in random order: a dictionary whose ids do not compress
            String text = "city " + random.nextInt(200);
            written.add(new Object[] {(long) i, text, noise, late});
        }
        Path file = dir.resolve("noisy.parquet");
        BaseFileWriter writer =
                new BaseFileWriter(
                        io.newOutputFile(file.toString()),
                        noisy,
                        new BaseFileWriteOptions(compression, 256 << 10, 8 << 10));
        for (Object[] values : written) {
            writer.write(BinaryRowWriter.toRow(noisy.rowType(), values));
        }
        writer.close();

        CompressionCodecName codec = ParquetCodecs.codecName(compression);
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            List<BlockMetaData> rowGroups = reader.getFooter().getBlocks();
            assertThat(rowGroups).hasSizeGreaterThan(2);
            for (int g = 0; g < rowGroups.size(); g++) {
                List<ColumnChunkMetaData> chunks = rowGroups.get(g).getColumns();
                assertThat(chunks)
                        .extracting(ColumnChunkMetaData::getCodec)
                        .containsExactly(
                                codec,
                                codec,
                                CompressionCodecName.UNCOMPRESSED,
                                g == 0 ? codec : CompressionCodecName.UNCOMPRESSED);
                ColumnChunkMetaData noise = chunks.get(2);
                assertThat(noise.getTotalSize()).isEqualTo(noise.getTotalUncompressedSize());
            }
        }
        try (BaseFileReader reader =
                new BaseFileReader(io.newInputFile(file.toString()), noisy.rowType())) {
            for (Object[] values : written) {
                assertThat(reader.next()).isTrue();
                assertThat(reader.row()).isEqualTo(BinaryRowWriter.toRow(noisy.rowType(), values));
            }
            assertThat(reader.next()).isFalse();
        }
    }

    private BaseFileWriter newWriter(String name) {
        return new BaseFileWriter(
                io.newOutputFile(dir.resolve(name).toString()),
                schema,
                BaseFileWriteOptions.of(BaseFileCompression.ZSTD));
    }

    private BinaryRow row(Object... values) {
        return BinaryRowWriter.toRow(schema.rowType(), values);
    }

    /** One of 100 values, in no order of i. */
    private static int scrambled(int i) {
        return (int) Math.floorMod(i * 2_654_435_761L, 100);
    }
}
