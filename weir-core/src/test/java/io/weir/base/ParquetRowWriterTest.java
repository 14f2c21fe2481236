package io.weir.base;

import io.weir.data.BinaryRowWriter;
import io.weir.options.BaseFileCompression;
import io.weir.types.DataTypes;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;

import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ParquetRowWriter} writes what parquet-java's own {@link ParquetWriter} writes from the
 * same values with the same properties: the same pages, dictionaries and their fallback to plain
 * pages, row groups, checksums, statistics and column and offset indexes. Uncompressed, byte for
 * byte up to the footer (whose only difference is the object model's name). Compressed, the column
 * chunks whose first page does not shrink by an eighth are stored uncompressed, so there the pages
 * are compared decompressed, one by one.
 */
class ParquetRowWriterTest {
    private static final RowType TYPE =
            RowType.of(
                    "id", DataTypes.BIGINT().notNull(),
                    "i", DataTypes.INT(),
                    "f", DataTypes.FLOAT(),
                    "d", DataTypes.DOUBLE(),
                    "b", DataTypes.BOOLEAN(),
                    "s", DataTypes.STRING(),
                    "u", DataTypes.STRING(),
                    "bin", DataTypes.BINARY(4),
                    "req", DataTypes.INT().notNull(),
                    "plain", DataTypes.STRING(),
                    "l", DataTypes.BIGINT());

    private static final int ROWS = 40_000;
    private static final int PAGE_SIZE = 4 << 10;
    private static final long ROW_GROUP_SIZE = 256 << 10;

    @TempDir Path dir;

    @ParameterizedTest
    @EnumSource(BaseFileCompression.class)
    void writesWhatParquetJavasWriterWrites(BaseFileCompression compression) throws Exception {
        // Row groups are cut by the bytes they store, so where a chunk is stored uncompressed they
        // end at other rows than parquet-java's: compressed, one row group is compared.
        boolean compressed = compression != BaseFileCompression.UNCOMPRESSED;
        ParquetMetadata footer =
                compareWithParquetJava(
                        compression, PAGE_SIZE, compressed ? 64 << 20 : ROW_GROUP_SIZE);

        // What was compared holds what matters: several row groups, dictionaries that fall back to
        // plain pages next to dictionaries that do not, and compressed, chunks stored both ways.
        if (compressed) {
            assertThat(footer.getBlocks().get(0).getColumns())
                    .extracting(ColumnChunkMetaData::getCodec)
                    .contains(
                            ParquetCodecs.codecName(compression),
                            CompressionCodecName.UNCOMPRESSED);
        } else {
            assertThat(footer.getBlocks()).hasSizeGreaterThan(2);
        }
        String path = dir.resolve("ours.parquet").toString();
        assertThat(BaseFileColumnarReadTest.chunkHas(path, "u", true, true)).isTrue();
        assertThat(BaseFileColumnarReadTest.chunkHas(path, "s", true, false)).isTrue();
        assertThat(BaseFileColumnarReadTest.chunkHas(path, "plain", false, true)).isTrue();
    }

    /**
     * One row group whose larger column chunks fill more than one of {@link RowGroupPages}' buffers
     * (the first holds 64 KiB).
     */
    @ParameterizedTest
    @EnumSource(
            value = BaseFileCompression.class,
            names = {"UNCOMPRESSED", "SNAPPY"})
    void aColumnChunkLargerThanOneBufferIsWrittenAsParquetJavaWritesIt(
            BaseFileCompression compression) throws Exception {
        ParquetMetadata footer = compareWithParquetJava(compression, 16 << 10, 64 << 20);

        assertThat(footer.getBlocks()).hasSize(1);
        ColumnChunkMetaData id = footer.getBlocks().get(0).getColumns().get(0);
        assertThat(id.getTotalSize()).isGreaterThan(2 * (64 << 10));
    }

    /**
     * The encoders' buffers are handed out again once released ({@link SlabAllocator}): the file is
     * the same bytes as one whose encoders take new buffers for every page, with delta-packed
     * integers (parquet-java's own encoders, whose buffers cannot be compared with parquet-java's
     * writer in format 1.0), dictionaries that fall back, and hundreds of pages a column.
     */
    @Test
    void encoderBuffersHandedOutAgainWriteTheSameBytes() throws Exception {
        List<Object[]> rows = rows(new Random(11));
        Set<String> delta = Set.of("id", "i", "req", "l");
        SlabAllocator slabs = new SlabAllocator();
        Path recycled = write(rows, properties(PAGE_SIZE).withAllocator(slabs), delta, "recycled");
        Path fresh = write(rows, properties(PAGE_SIZE), delta, "fresh");

        assertThat(Files.readAllBytes(recycled)).isEqualTo(Files.readAllBytes(fresh));
        assertThat(slabs.keptBytes()).isPositive();
        ParquetMetadata footer = footer(recycled);
        assertThat(footer.getBlocks()).hasSizeGreaterThan(2);
        ColumnChunkMetaData id = footer.getBlocks().get(0).getColumns().get(0);
        assertThat(id.getEncodings()).contains(Encoding.DELTA_BINARY_PACKED);
        assertThat(BaseFileColumnarReadTest.chunkHas(recycled.toString(), "u", true, true))
                .isTrue();
    }

    private Path write(
            List<Object[]> rows,
            ParquetProperties.Builder properties,
            Set<String> delta,
            String name)
            throws Exception {
        Path path = dir.resolve(name + ".parquet");
        ParquetCodecs codecs = new ParquetCodecs();
        ParquetRowWriter writer =
                new ParquetRowWriter(
                        new LocalOutputFile(path),
                        new RowShredder(TYPE),
                        Map.of(),
                        codecs.getCompressor(CompressionCodecName.UNCOMPRESSED),
                        properties.withValuesWriterFactory(new ValueWriters(delta)).build(),
                        ROW_GROUP_SIZE);
        for (Object[] values : rows) {
            writer.write(BinaryRowWriter.toRow(TYPE, values));
        }
        writer.close();
        codecs.release();
        return path;
    }

    private ParquetMetadata compareWithParquetJava(
            BaseFileCompression compression, int pageSize, long rowGroupSize) throws Exception {
        List<Object[]> rows = rows(new Random(7));
        Map<String, String> metadata = Map.of("weir.format-version", "1");
        Path ours = dir.resolve("ours.parquet");
        Path theirs = dir.resolve("theirs.parquet");
        ParquetCodecs codecs = new ParquetCodecs();

        ParquetRowWriter writer =
                new ParquetRowWriter(
                        new LocalOutputFile(ours),
                        new RowShredder(TYPE),
                        metadata,
                        codecs.getCompressor(ParquetCodecs.codecName(compression)),
                        properties(pageSize)
                                .withAllocator(new SlabAllocator())
                                .withValuesWriterFactory(new ValueWriters())
                                .build(),
                        rowGroupSize);
        for (Object[] values : rows) {
            writer.write(BinaryRowWriter.toRow(TYPE, values));
        }
        writer.close();

        MessageType schema = ParquetTypes.messageType(TYPE);
        try (ParquetWriter<Group> reference =
                ExampleParquetWriter.builder(new LocalOutputFile(theirs))
                        .withConf(new PlainParquetConfiguration())
                        .withType(schema)
                        .withExtraMetaData(metadata)
                        .withCodecFactory(codecs)
                        .withCompressionCodec(ParquetCodecs.codecName(compression))
                        .withRowGroupSize(rowGroupSize)
                        .withPageSize(pageSize)
                        .withDictionaryPageSize(pageSize)
                        .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                        .withPageWriteChecksumEnabled(true)
                        .withDictionaryEncoding("plain", false)
                        .build()) {
            SimpleGroupFactory groups = new SimpleGroupFactory(schema);
            for (Object[] values : rows) {
                reference.write(ParquetGroups.of(groups, values));
            }
        }

        ParquetMetadata footer = footer(ours);
        ParquetMetadata reference = footer(theirs);
        if (compression == BaseFileCompression.UNCOMPRESSED) {
            byte[] a = Files.readAllBytes(ours);
            byte[] b = Files.readAllBytes(theirs);
            int dataEnd = footerStart(b);
            assertThat(footerStart(a)).isEqualTo(dataEnd);
            assertThat(Arrays.equals(a, 0, dataEnd, b, 0, dataEnd))
                    .as("bytes before the footer")
                    .isTrue();
            assertThat(footer.getBlocks().toString()).isEqualTo(reference.getBlocks().toString());
        } else {
            assertSamePages(ours, theirs, codecs);
        }
        codecs.release();
        for (int g = 0; g < footer.getBlocks().size(); g++) {
            List<ColumnChunkMetaData> columns = footer.getBlocks().get(g).getColumns();
            for (int c = 0; c < columns.size(); c++) {
                ColumnChunkMetaData expected = reference.getBlocks().get(g).getColumns().get(c);
                assertThat(columns.get(c).getStatistics()).isEqualTo(expected.getStatistics());
                assertThat(pageCounts(columns.get(c).getEncodingStats()))
                        .isEqualTo(pageCounts(expected.getEncodingStats()));
            }
        }
        Map<String, String> keyValues =
                new HashMap<>(footer.getFileMetaData().getKeyValueMetaData());
        assertThat(keyValues.remove(ParquetWriter.OBJECT_MODEL_NAME_PROP)).isEqualTo("weir");
        assertThat(keyValues).isEqualTo(metadata);
        assertThat(footer.getBlocks().stream().mapToLong(BlockMetaData::getRowCount).sum())
                .isEqualTo(ROWS);
        return footer;
    }

    /**
     * Both files hold the same row groups, each column chunk the same pages: the same values,
     * encodings and statistics, decompressed the same bytes, and the same column and page indexes.
     * Their codecs: each chunk of {@code theirs} has the file's, each of {@code ours} the file's or
     * none.
     */
    private static void assertSamePages(Path ours, Path theirs, ParquetCodecs codecs)
            throws Exception {
        ParquetReadOptions options =
                ParquetReadOptions.builder(new PlainParquetConfiguration())
                        .withCodecFactory(codecs)
                        .usePageChecksumVerification(true)
                        .build();
        try (ParquetFileReader a = ParquetFileReader.open(new LocalInputFile(ours), options);
                ParquetFileReader b = ParquetFileReader.open(new LocalInputFile(theirs), options)) {
            List<BlockMetaData> groupsA = a.getRowGroups();
            List<BlockMetaData> groupsB = b.getRowGroups();
            assertThat(groupsA).hasSameSizeAs(groupsB);
            MessageType schema = a.getFooter().getFileMetaData().getSchema();
            for (int g = 0; g < groupsA.size(); g++) {
                assertThat(groupsA.get(g).getRowCount()).isEqualTo(groupsB.get(g).getRowCount());
                for (int c = 0; c < schema.getColumns().size(); c++) {
                    ColumnChunkMetaData chunkA = groupsA.get(g).getColumns().get(c);
                    ColumnChunkMetaData chunkB = groupsB.get(g).getColumns().get(c);
                    String where = "row group " + g + ", " + chunkA.getPath();
                    assertThat(chunkA.getCodec())
                            .as(where)
                            .isIn(chunkB.getCodec(), CompressionCodecName.UNCOMPRESSED);
                    assertThat(chunkA.getValueCount()).as(where).isEqualTo(chunkB.getValueCount());
                    assertThat(String.valueOf(a.readColumnIndex(chunkA)))
                            .as(where)
                            .isEqualTo(String.valueOf(b.readColumnIndex(chunkB)));
                    assertThat(firstRows(a.readOffsetIndex(chunkA)))
                            .as(where)
                            .isEqualTo(firstRows(b.readOffsetIndex(chunkB)));
                }
                PageReadStore pagesA = a.readNextRowGroup();
                PageReadStore pagesB = b.readNextRowGroup();
                for (ColumnDescriptor column : schema.getColumns()) {
                    assertSamePages(
                            pagesA.getPageReader(column),
                            pagesB.getPageReader(column),
                            "row group " + g + ", " + column);
                }
            }
        }
    }

    private static void assertSamePages(PageReader a, PageReader b, String where) throws Exception {
        DictionaryPage dictionaryA = a.readDictionaryPage();
        DictionaryPage dictionaryB = b.readDictionaryPage();
        assertThat(dictionaryA == null).as(where).isEqualTo(dictionaryB == null);
        if (dictionaryA != null) {
            assertThat(dictionaryA.getDictionarySize()).isEqualTo(dictionaryB.getDictionarySize());
            assertThat(dictionaryA.getEncoding()).isEqualTo(dictionaryB.getEncoding());
            assertThat(dictionaryA.getBytes().toByteArray())
                    .as(where + ", dictionary")
                    .isEqualTo(dictionaryB.getBytes().toByteArray());
        }
        for (int p = 0; ; p++) {
            DataPageV1 pageA = (DataPageV1) a.readPage();
            DataPageV1 pageB = (DataPageV1) b.readPage();
            assertThat(pageA == null).as(where + ", page " + p).isEqualTo(pageB == null);
            if (pageA == null) {
                return;
            }
            assertThat(pageA.getValueCount()).isEqualTo(pageB.getValueCount());
            assertThat(pageA.getValueEncoding()).isEqualTo(pageB.getValueEncoding());
            assertThat(pageA.getDlEncoding()).isEqualTo(pageB.getDlEncoding());
            assertThat(pageA.getStatistics()).isEqualTo(pageB.getStatistics());
            assertThat(pageA.getBytes().toByteArray())
                    .as(where + ", page " + p)
                    .isEqualTo(pageB.getBytes().toByteArray());
        }
    }

    private static List<Long> firstRows(OffsetIndex index) {
        List<Long> rows = new ArrayList<>();
        for (int p = 0; p < index.getPageCount(); p++) {
            rows.add(index.getFirstRowIndex(p));
        }
        return rows;
    }

    private static ParquetProperties.Builder properties(int pageSize) {
        return ParquetProperties.builder()
                .withPageSize(pageSize)
                .withDictionaryPageSize(pageSize)
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .withPageWriteChecksumEnabled(true)
                .withDictionaryEncoding("plain", false);
    }

    /**
     * Values with nulls in every nullable column (in stretches of rows, so that some pages have
     * none and some have their first null after their first values), a dictionary-sized string
     * column, one whose dictionary outgrows its page, NaN and -0.0, an empty string, strings of
     * bytes above 0x7F (statistics compare them unsigned), and the extreme longs.
     */
    private static List<Object[]> rows(Random random) {
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            boolean nulls = r % 9_000 >= 4_000 && random.nextInt(10) == 0;
            long l =
                    r % 1_000 == 7
                            ? Long.MIN_VALUE
                            : r % 1_000 == 8 ? Long.MAX_VALUE : random.nextLong();
            float f = r % 97 == 0 ? Float.NaN : r % 89 == 0 ? -0.0f : random.nextFloat();
            byte[] bin = new byte[4];
            random.nextBytes(bin);
            rows.add(
                    new Object[] {
                        (long) r * 3,
                        nulls ? null : random.nextInt(),
                        nulls ? null : f,
                        nulls ? null : random.nextGaussian(),
                        nulls ? null : random.nextBoolean(),
                        nulls ? null : "city-" + random.nextInt(40),
                        // a dictionary that fills pages, then outgrows its size: plain pages
                        nulls ? null : r % 10_000 < 6_000 ? "v" + r % 200 : "distinct-" + r,
                        nulls ? null : bin,
                        random.nextInt(1000),
                        nulls
                                ? null
                                : (r % 50 == 0
                                        ? ""
                                        : (r % 7 == 0 ? "\u00fc" : "p") + random.nextInt(5000)),
                        nulls ? null : l
                    });
        }
        return rows;
    }

    /** Pages per encoding: dictionary pages, then data pages. */
    private static List<Map<Encoding, Integer>> pageCounts(EncodingStats stats) {
        Map<Encoding, Integer> dictionary = new HashMap<>();
        Map<Encoding, Integer> data = new HashMap<>();
        stats.getDictionaryEncodings()
                .forEach(e -> dictionary.put(e, stats.getNumDictionaryPagesEncodedAs(e)));
        stats.getDataEncodings().forEach(e -> data.put(e, stats.getNumDataPagesEncodedAs(e)));
        return List.of(dictionary, data);
    }

    /** Where the footer starts: before its 4-byte length and the closing magic. */
    private static int footerStart(byte[] file) {
        return file.length - 8 - LittleEndian.getInt(file, file.length - 8);
    }

    private static ParquetMetadata footer(Path file) throws Exception {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            return reader.getFooter();
        }
    }
}
