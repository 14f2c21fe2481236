package io.weir.base;

import io.weir.data.BinaryRow;
import io.weir.exceptions.CorruptFileException;
import io.weir.testing.ByteArrayInputFile;
import io.weir.types.Field;
import io.weir.types.RowType;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.schema.MessageType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coverage-guided fuzzing of the base file reader's page decoders (Jazzer; see docs/testing.md).
 * The fuzzer chooses one or two neighbouring columns of {@link AllTypes} (every physical and
 * logical type Weir writes) and the pages of a one-row-group file of them: their count, version
 * (v1, v2), value encoding (plain, dictionary, RLE), value counts, dictionary, level and value
 * bytes. parquet-java frames them, with page checksums that match, so every page reaches the
 * decoders. Reading every field of every row either succeeds or fails with a {@link
 * CorruptFileException} naming the file. A finding is: any other exception; a corruption error
 * whose cause is an index, null or arithmetic exception thrown by Weir's own code (a decoder that
 * read outside its page rather than detect it); or rows that differ from what parquet-java's record
 * reader reads from the same file.
 */
class BasePageFuzzTest {
    private static final String PATH = "fuzzed.parquet";
    private static final List<Field> FIELDS = AllTypes.SCHEMA.rowType().fields();

    /** One column, or two, so that a file is small and quick to write and read. */
    private static final RowType[] TYPES = new RowType[2 * FIELDS.size() - 1];

    static {
        for (int i = 0; i < TYPES.length; i++) {
            int first = i / 2;
            TYPES[i] = new RowType(FIELDS.subList(first, first + 1 + i % 2));
        }
    }

    @FuzzTest(maxDuration = "3s")
    void readPages(FuzzedDataProvider data) throws IOException {
        RowType type = TYPES[data.consumeInt(0, TYPES.length - 1)];
        byte[] file = write(data, ParquetTypes.messageType(type));
        List<List<Object>> columnar = read(new BaseFileReader(input(file), type), type);
        if (columnar == null) {
            return;
        }
        int[] all = IntStream.range(0, type.size()).toArray();
        List<List<Object>> records;
        try {
            records = read(new BaseFileReader(input(file), type, all, false), type);
        } catch (OutOfMemoryError e) {
            // parquet-java's RLE decoder allocates a bit-packed run's groups from the run header,
            // before it checks that the page holds them (input parquet-java-rle-run-...); Weir's
            // decoder read the page. The one huge array is refused, nothing else is held.
            return;
        }
        if (records != null) {
            assertThat(columnar).as("rows decoded by columns and by records").isEqualTo(records);
        }
    }

    private static ByteArrayInputFile input(byte[] file) {
        return new ByteArrayInputFile(PATH, file);
    }

    /** Every row's values, or null if the file is corrupt. */
    private static List<List<Object>> read(BaseFileReader reader, RowType type) {
        List<List<Object>> rows = new ArrayList<>();
        try (reader) {
            while (reader.next()) {
                BinaryRow row = reader.row();
                List<Object> values = new ArrayList<>();
                for (int pos = 0; pos < type.size(); pos++) {
                    Object value = row.get(pos, type.type(pos));
                    values.add(value instanceof byte[] b ? HexFormat.of().formatHex(b) : value);
                }
                rows.add(values);
            }
        } catch (CorruptFileException e) {
            assertThat(e.path()).isEqualTo(PATH);
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                if (missingCheck(t)) {
                    throw new AssertionError("Weir's reader failed unchecked on " + PATH, t);
                }
            }
            return null;
        }
        return rows;
    }

    /**
     * Whether {@code t} is an exception that Weir's own code threw for want of a check (an index or
     * a null it did not expect), rather than one that reports what it detected.
     */
    private static boolean missingCheck(Throwable t) {
        return (t instanceof IndexOutOfBoundsException
                        || t instanceof NullPointerException
                        || t instanceof NegativeArraySizeException
                        || t instanceof ArithmeticException
                        || t instanceof ClassCastException
                        || t instanceof BufferUnderflowException)
                && t.getStackTrace().length > 0
                && t.getStackTrace()[0].getClassName().startsWith("io.weir.");
    }

    /** A base file whose pages the fuzzer chose. */
    private static byte[] write(FuzzedDataProvider data, MessageType schema) throws IOException {
        BytesOut out = new BytesOut();
        ParquetFileWriter writer =
                new ParquetFileWriter(
                        out,
                        schema,
                        ParquetFileWriter.Mode.CREATE,
                        128 << 20,
                        0,
                        64,
                        Integer.MAX_VALUE,
                        true);
        writer.start();
        int rows = data.consumeInt(1, 40);
        writer.startBlock(rows);
        for (ColumnDescriptor column : schema.getColumns()) {
            writer.startColumn(column, rows, CompressionCodecName.UNCOMPRESSED);
            Statistics<?> stats = Statistics.createStats(column.getPrimitiveType());
            boolean dictionary = data.consumeBoolean();
            if (dictionary) {
                byte[] entries = data.consumeBytes(data.consumeInt(0, 200));
                writer.writeDictionaryPage(
                        new DictionaryPage(
                                BytesInput.from(entries),
                                data.consumeInt(0, 40),
                                Encoding.PLAIN_DICTIONARY));
            }
            for (int left = rows; left > 0; ) {
                int values = data.consumeInt(1, left);
                left -= values;
                Encoding encoding =
                        data.pickValue(
                                dictionary
                                        ? new Encoding[] {Encoding.RLE_DICTIONARY, Encoding.PLAIN}
                                        : new Encoding[] {Encoding.PLAIN, Encoding.RLE});
                if (data.consumeBoolean()) {
                    byte[] page = data.consumeBytes(data.consumeInt(0, 400));
                    writer.writeDataPage(
                            values,
                            page.length,
                            BytesInput.from(page),
                            stats,
                            Encoding.RLE,
                            Encoding.RLE,
                            encoding);
                } else {
                    byte[] levels = data.consumeBytes(data.consumeInt(0, 40));
                    byte[] page = data.consumeBytes(data.consumeInt(0, 400));
                    writer.writeDataPageV2(
                            values,
                            data.consumeInt(0, values),
                            values,
                            BytesInput.empty(),
                            BytesInput.from(levels),
                            encoding,
                            BytesInput.from(page),
                            page.length,
                            stats);
                }
            }
            writer.endColumn();
        }
        writer.endBlock();
        writer.end(Map.of());
        return out.bytes.toByteArray();
    }

    private static final class BytesOut implements OutputFile {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public PositionOutputStream create(long blockSizeHint) {
            return new PositionOutputStream() {
                @Override
                public long getPos() {
                    return bytes.size();
                }

                @Override
                public void write(int b) {
                    bytes.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    bytes.write(b, off, len);
                }
            };
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            return create(blockSizeHint);
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }

        @Override
        public String getPath() {
            return PATH;
        }
    }
}
