package io.weir.base;

import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.Timestamp;
import io.weir.exceptions.CorruptFileException;
import io.weir.io.LocalFileIO;
import io.weir.options.BaseFileCompression;
import io.weir.types.DataTypes;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;

import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Row groups are decoded column by column ({@link ColumnDecoder}) when their encodings allow, and
 * the rows are exactly those of parquet-java's record reader (the other path) and of the model.
 */
class BaseFileColumnarReadTest {
    @TempDir Path dir;
    private final LocalFileIO io = new LocalFileIO();

    @ParameterizedTest
    @MethodSource("io.weir.base.BaseFileRoundTripTest#compressionsAndSizes")
    void weirFilesAreDecodedByColumnIntoTheRecordReadersRows(BaseFileWriteOptions options) {
        List<Object[]> rows = AllTypes.rows(1500);
        String path = write(AllTypes.SCHEMA, rows, options);
        int all = AllTypes.ROW_TYPE.size();
        int[][] projections = {
            IntStream.range(0, all).toArray(),
            IntStream.range(0, all).map(i -> all - 1 - i).toArray(),
            {AllTypes.ROW_TYPE.indexOf("s")},
            {AllTypes.ROW_TYPE.indexOf("uniq"), 0, AllTypes.ROW_TYPE.indexOf("b")},
        };
        for (int[] projection : projections) {
            List<BinaryRow> decoded = read(path, AllTypes.ROW_TYPE, projection, true);
            List<BinaryRow> assembled = read(path, AllTypes.ROW_TYPE, projection, false);

            assertThat(decoded).hasSize(rows.size()).isEqualTo(assembled);
            RowType type = AllTypes.ROW_TYPE.project(projection);
            for (int k = 0; k < rows.size(); k++) {
                assertThat(AllTypes.comparable(decoded.get(k), type))
                        .as("row %d of %s", k, Arrays.toString(projection))
                        .isEqualTo(AllTypes.comparable(rows.get(k), projection));
            }
        }
    }

    /**
     * Small dictionary pages: chunks start dictionary-encoded and fall back to plain pages; the
     * columns hold all-null pages, long runs of one value, a single distinct value (ids of 0 bits)
     * and booleans across byte boundaries.
     */
    @Test
    void dictionaryAndPlainPagesNullsAndRuns() throws Exception {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("late", DataTypes.INT())
                        .column("runs", DataTypes.STRING())
                        .column("one", DataTypes.STRING())
                        .column("flag", DataTypes.BOOLEAN())
                        .column("grows", DataTypes.STRING())
                        .column("d", DataTypes.DOUBLE().notNull())
                        .primaryKey("id")
                        .build();
        List<Object[]> rows = new ArrayList<>();
        for (int k = 0; k < 30_000; k++) {
            rows.add(
                    new Object[] {
                        (long) k,
                        k < 12_000 ? null : k % 7,
                        "run-" + (k / 500),
                        k % 1000 == 999 ? null : "the only value",
                        k % 3 == 0 ? null : k % 5 < 2,
                        // few values in the sample, then a new one per row: the dictionary
                        // outgrows its page and the chunk goes on in plain pages
                        k < 15_000 ? "v" + (k % 10) : "distinct-" + k,
                        k * 0.5
                    });
        }
        BaseFileWriteOptions options =
                new BaseFileWriteOptions(BaseFileCompression.SNAPPY, 64 << 20, 4096);
        String path = write(schema, rows, options);
        assertThat(chunkHas(path, "grows", true, true)).isTrue();
        assertThat(chunkHas(path, "runs", true, false)).isTrue();

        assertBothPathsReadTheModel(path, schema.rowType(), rows);
    }

    /**
     * Every type stored as an INT32 or INT64 is written DELTA_BINARY_PACKED where its values are
     * mostly distinct and far from random (keys in order, small numbers, times): in small pages,
     * with nulls, values that wrap and pages of nulls only. (A TINYINT has too few values not to
     * keep its dictionary.) Both read paths give the model's rows; with delta encoding off, too,
     * from plain and dictionary pages only.
     */
    @ParameterizedTest
    @EnumSource(
            value = BaseFileCompression.class,
            names = {"UNCOMPRESSED", "ZSTD"})
    void deltaEncodedIntegersOfEveryTypeReadAsWritten(BaseFileCompression compression)
            throws Exception {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("tiny", DataTypes.TINYINT())
                        .column("small", DataTypes.SMALLINT())
                        .column("int", DataTypes.INT())
                        .column("day", DataTypes.DATE())
                        .column("dec9", DataTypes.DECIMAL(9, 2))
                        .column("dec18", DataTypes.DECIMAL(18, 3))
                        .column("millis", DataTypes.TIMESTAMP(3))
                        .column("micros", DataTypes.TIMESTAMP_LTZ(6))
                        .column("nanos", DataTypes.TIMESTAMP(9))
                        .column("wraps", DataTypes.BIGINT())
                        .primaryKey("id")
                        .build();
        Random random = new Random(11);
        List<Object[]> rows = new ArrayList<>();
        for (int k = 0; k < 20_000; k++) {
            boolean nulls = k % 5_000 >= 3_000; // whole pages of nulls in every nullable column
            long at = 1_700_000_000_000L + 7L * k + random.nextInt(5);
            rows.add(
                    new Object[] {
                        -50_000L + 3L * k,
                        nulls ? null : (byte) (k % 200 - 100),
                        nulls ? null : (short) (k * 3),
                        nulls || k % 3 == 0 ? null : k * 11 - 100_000,
                        nulls ? null : 18_000 + k, // epoch days
                        nulls ? null : BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2),
                        nulls ? null : BigDecimal.valueOf(random.nextInt(10_000_000), 3),
                        nulls ? null : Timestamp.ofMillis(at),
                        nulls ? null : new Timestamp(at, 1000 * random.nextInt(1000)),
                        nulls ? null : new Timestamp(at, k % 1_000_000),
                        nulls ? null : (k % 2 == 0 ? Long.MAX_VALUE - k : Long.MIN_VALUE + k)
                    });
        }
        BaseFileWriteOptions options = new BaseFileWriteOptions(compression, 64 << 20, 4096);
        String path = write(schema, rows, options);
        for (String column :
                List.of(
                        "id", "small", "int", "day", "dec9", "dec18", "millis", "micros", "nanos",
                        "wraps")) {
            assertThat(encodings(path, column))
                    .as(column)
                    .contains(Encoding.DELTA_BINARY_PACKED)
                    .doesNotContain(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY);
        }
        assertBothPathsReadTheModel(path, schema.rowType(), rows);

        // file.delta-encoding=false: plain and dictionary values only, the same rows
        String plain = write(schema, rows, options.withDeltaEncoding(false));
        for (int c = 0; c < schema.rowType().size(); c++) {
            assertThat(encodings(plain, schema.rowType().field(c).name()))
                    .doesNotContain(Encoding.DELTA_BINARY_PACKED);
        }
        assertBothPathsReadTheModel(plain, schema.rowType(), rows);
    }

    /**
     * Integers that a dictionary could hold, written by the smaller encoding on the sample: times
     * of ten seconds of ingestion in the order of other keys (about 6,300 distinct values in the
     * sample of 10,000) as deltas, few values far apart and long runs of one value in a dictionary.
     * Both read paths give the model's rows.
     */
    @Test
    void dictionaryOrDeltasByTheirSizeOnTheSample() throws Exception {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("ts", DataTypes.TIMESTAMP(3))
                        .column("code", DataTypes.BIGINT())
                        .column("level", DataTypes.INT())
                        .primaryKey("id")
                        .build();
        Random random = new Random(17);
        List<Object[]> rows = new ArrayList<>();
        for (int k = 0; k < 40_000; k++) {
            rows.add(
                    new Object[] {
                        (long) k,
                        k % 100 == 0
                                ? null
                                : Timestamp.ofMillis(1_700_000_000_000L + random.nextInt(10_000)),
                        (random.nextInt(30) + 1) * 1_000_000_007L,
                        k / 2_000
                    });
        }
        BaseFileWriteOptions options =
                new BaseFileWriteOptions(BaseFileCompression.SNAPPY, 64 << 20, 128 << 10);
        String path = write(schema, rows, options);
        assertThat(encodings(path, "ts"))
                .contains(Encoding.DELTA_BINARY_PACKED)
                .doesNotContain(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY);
        for (String column : List.of("code", "level")) {
            assertThat(encodings(path, column)).as(column).containsOnly(Encoding.PLAIN_DICTIONARY);
        }
        assertBothPathsReadTheModel(path, schema.rowType(), rows);

        // without delta encoding the times keep their dictionary (of 128 KB: 16,384 values)
        String plain = write(schema, rows, options.withDeltaEncoding(false));
        assertThat(encodings(plain, "ts")).containsOnly(Encoding.PLAIN_DICTIONARY);
        assertBothPathsReadTheModel(plain, schema.rowType(), rows);
    }

    /**
     * parquet-java's writer: v2 data pages with dictionaries (RLE_DICTIONARY ids, RLE booleans) and
     * v1 pages without are decoded by column; v2 without dictionaries (delta encodings) go through
     * the record reader. All read the same values.
     */
    @Test
    void filesOfOtherWritersAreDecodedWhereTheirEncodingsAllow() throws Exception {
        RowType type =
                RowType.of(
                        "id", DataTypes.BIGINT().notNull(),
                        "s", DataTypes.STRING(),
                        "b", DataTypes.BOOLEAN(),
                        "i", DataTypes.INT(),
                        "d", DataTypes.DOUBLE());
        MessageType schema =
                MessageTypeParser.parseMessageType(
                        "message m { required int64 id; optional binary s (STRING);"
                                + " optional boolean b; optional int32 i; optional double d; }");
        List<Object[]> rows = new ArrayList<>();
        for (int k = 0; k < 20_000; k++) {
            rows.add( // few distinct values, so that every column keeps its dictionary
                    new Object[] {
                        (long) (k % 50),
                        k % 13 == 0 ? null : "s" + (k % 40),
                        k % 4 == 0 ? null : k % 3 == 0,
                        k % 6 == 0 ? null : k % 17,
                        k % 5 == 0 ? null : (k % 30) / 8.0
                    });
        }
        int[] all = IntStream.range(0, type.size()).toArray();
        record Case(
                ParquetProperties.WriterVersion version, boolean dictionary, boolean byColumn) {}
        for (Case c :
                List.of(
                        new Case(ParquetProperties.WriterVersion.PARQUET_2_0, true, true),
                        new Case(ParquetProperties.WriterVersion.PARQUET_1_0, false, true),
                        new Case(ParquetProperties.WriterVersion.PARQUET_2_0, false, false))) {
            Path file = dir.resolve("other-" + c.version() + "-" + c.dictionary() + ".parquet");
            try (ParquetWriter<Group> writer =
                    ExampleParquetWriter.builder(new LocalOutputFile(file))
                            .withType(schema)
                            .withCompressionCodec(CompressionCodecName.SNAPPY)
                            .withWriterVersion(c.version())
                            .withDictionaryEncoding(c.dictionary())
                            .withPageSize(2048)
                            .withRowGroupSize(16 << 10)
                            .build()) {
                SimpleGroupFactory groups = new SimpleGroupFactory(schema);
                for (Object[] values : rows) {
                    Group group = groups.newGroup().append("id", (long) values[0]);
                    if (values[1] != null) {
                        group.append("s", (String) values[1]);
                    }
                    if (values[2] != null) {
                        group.append("b", (boolean) values[2]);
                    }
                    if (values[3] != null) {
                        group.append("i", (int) values[3]);
                    }
                    if (values[4] != null) {
                        group.append("d", (double) values[4]);
                    }
                    writer.write(group);
                }
            }
            List<BinaryRow> read;
            int rowGroups;
            try (BaseFileReader reader =
                    new BaseFileReader(io.newInputFile(file.toString()), type, all, true)) {
                read = readAll(reader);
                rowGroups = reader.columnarRowGroups();
            }
            assertThat(rowGroups).as("%s", c).isEqualTo(c.byColumn() ? rowGroups(file) : 0);
            assertThat(rowGroups(file)).isGreaterThan(1);
            for (int k = 0; k < rows.size(); k++) {
                assertThat(AllTypes.comparable(read.get(k), type))
                        .as("row %d of %s", k, c)
                        .isEqualTo(AllTypes.comparable(rows.get(k)));
            }
        }
    }

    /**
     * A page without checksum (another writer's) whose last string claims more bytes than the page
     * holds: the decoder fails, and the failure names the file.
     */
    @Test
    void aMalformedPageIsACorruptFileNotAWrongValue() throws Exception {
        RowType type = RowType.of("s", DataTypes.BYTES());
        MessageType schema = MessageTypeParser.parseMessageType("message m { required binary s; }");
        Path file = dir.resolve("unchecked.parquet");
        try (ParquetWriter<Group> writer =
                ExampleParquetWriter.builder(new LocalOutputFile(file))
                        .withType(schema)
                        .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
                        .withDictionaryEncoding(false)
                        .withPageWriteChecksumEnabled(false)
                        .build()) {
            SimpleGroupFactory groups = new SimpleGroupFactory(schema);
            for (int k = 0; k < 100; k++) {
                writer.write(groups.newGroup().append("s", "value-" + (k % 10) + "!")); // 8 bytes
            }
        }
        long chunkEnd;
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            ColumnChunkMetaData chunk = reader.getRowGroups().get(0).getColumns().get(0);
            chunkEnd = chunk.getStartingPos() + chunk.getTotalSize();
        }
        byte[] bytes = Files.readAllBytes(file);
        // the last value's 4-byte length, before its 8 bytes, at the end of the only page
        LittleEndian.putInt(bytes, (int) chunkEnd - 12, Integer.MAX_VALUE);
        Files.write(file, bytes);

        try (BaseFileReader reader =
                new BaseFileReader(io.newInputFile(file.toString()), type, new int[] {0}, true)) {
            assertThatThrownBy(
                            () -> {
                                while (reader.next()) {
                                    // read until the damage
                                }
                            })
                    .isInstanceOf(CorruptFileException.class)
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("past the end of a page");
            assertThat(reader.columnarRowGroups()).isEqualTo(1);
        }
    }

    private String write(Schema schema, List<Object[]> rows, BaseFileWriteOptions options) {
        String path = dir.resolve("base-" + System.nanoTime() + ".parquet").toString();
        BaseFileWriter writer = new BaseFileWriter(io.newOutputFile(path), schema, options);
        for (Object[] values : rows) {
            writer.write(AllTypes.toRow(schema.rowType(), values));
        }
        writer.close();
        return path;
    }

    /** Every column read by column and by parquet-java's record reader: the model's rows. */
    private void assertBothPathsReadTheModel(String path, RowType type, List<Object[]> rows) {
        int[] all = IntStream.range(0, type.size()).toArray();
        List<BinaryRow> decoded = read(path, type, all, true);

        assertThat(decoded).isEqualTo(read(path, type, all, false));
        for (int k = 0; k < rows.size(); k++) {
            assertThat(AllTypes.comparable(decoded.get(k), type))
                    .as("row %d", k)
                    .isEqualTo(AllTypes.comparable(rows.get(k)));
        }
    }

    /** Reads copies of every row, and checks which path read the row groups. */
    private List<BinaryRow> read(String path, RowType type, int[] projection, boolean byColumn) {
        try (BaseFileReader reader =
                new BaseFileReader(io.newInputFile(path), type, projection, byColumn)) {
            List<BinaryRow> rows = readAll(reader);
            try {
                assertThat(reader.columnarRowGroups())
                        .isEqualTo(byColumn ? rowGroups(Path.of(path)) : 0);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            return rows;
        }
    }

    private static List<BinaryRow> readAll(BaseFileReader reader) {
        List<BinaryRow> rows = new ArrayList<>();
        while (reader.next()) {
            rows.add(reader.row().copy());
        }
        return rows;
    }

    private static int rowGroups(Path file) throws Exception {
        return BaseFileRoundTripTest.rowGroups(file.toString());
    }

    /** Whether some chunk of the column has dictionary-encoded and plain data pages as asked. */
    /** The value encodings of a column's chunks. */
    static Set<Encoding> encodings(String path, String column) throws Exception {
        Set<Encoding> encodings = new HashSet<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(Path.of(path)))) {
            for (BlockMetaData rowGroup : reader.getRowGroups()) {
                for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
                    if (chunk.getPath().toDotString().equals(column)) {
                        EncodingStats stats = chunk.getEncodingStats();
                        encodings.addAll(stats.getDataEncodings());
                        encodings.addAll(stats.getDictionaryEncodings());
                    }
                }
            }
        }
        return encodings;
    }

    static boolean chunkHas(String path, String column, boolean dict, boolean plain)
            throws Exception {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(Path.of(path)))) {
            for (BlockMetaData rowGroup : reader.getRowGroups()) {
                for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
                    EncodingStats stats = chunk.getEncodingStats();
                    if (chunk.getPath().toDotString().equals(column)
                            && stats.hasDictionaryEncodedPages() == dict
                            && stats.hasNonDictionaryEncodedPages() == plain) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
