package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.data.Timestamp;
import io.weir.io.InputFile;
import io.weir.io.LocalFileIO;
import io.weir.io.OutputFile;
import io.weir.io.PositionOutputStream;
import io.weir.testing.ByteArrayInputFile;
import io.weir.types.DataType;
import io.weir.types.DataTypes;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;

/** Rows, files and a format walker shared by the log tests. */
final class LogTestSupport {
    static final RowType TYPE =
            RowType.of(
                    "id", DataTypes.BIGINT().notNull(),
                    "flag", DataTypes.BOOLEAN(),
                    "small", DataTypes.INT(),
                    "name", DataTypes.STRING(),
                    "score", DataTypes.DOUBLE(),
                    "price", DataTypes.DECIMAL(10, 2),
                    "amount", DataTypes.DECIMAL(38, 10),
                    "ts", DataTypes.TIMESTAMP(9),
                    "day", DataTypes.DATE(),
                    "data", DataTypes.BYTES());

    static final LocalFileIO IO = new LocalFileIO();

    private LogTestSupport() {}

    /**
     * Random rows of {@link #TYPE}, all four kinds, about one field in six null, strings from empty
     * to {@code maxString} characters.
     */
    static List<BinaryRow> randomRows(Random random, int count, int maxString) {
        RowKind[] kinds = RowKind.values();
        List<BinaryRow> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Object[] values = new Object[TYPE.size()];
            values[0] = (long) i;
            for (int f = 1; f < values.length; f++) {
                values[f] = random.nextInt(6) == 0 ? null : randomValue(random, f, maxString);
            }
            rows.add(BinaryRowWriter.toRow(TYPE, kinds[random.nextInt(kinds.length)], values));
        }
        return rows;
    }

    private static Object randomValue(Random random, int field, int maxString) {
        DataType type = TYPE.type(field);
        return switch (type.root()) {
            case BOOLEAN -> random.nextBoolean();
            case INT, DATE -> random.nextInt(100_000);
            case DOUBLE -> random.nextDouble();
            case DECIMAL ->
                    new BigDecimal(
                            BigInteger.valueOf(random.nextLong() % 10_000_000L), type.scale());
            case VARCHAR -> randomString(random, maxString);
            case TIMESTAMP -> new Timestamp(random.nextLong() >> 20, random.nextInt(1_000_000));
            case VARBINARY -> randomString(random, 40).getBytes(StandardCharsets.UTF_8);
            default -> throw new IllegalStateException(type.toString());
        };
    }

    /** Mostly short strings, some long ones, and now and then one of up to maxString chars. */
    private static String randomString(Random random, int maxString) {
        int length =
                switch (random.nextInt(10)) {
                    case 0 -> random.nextInt(maxString + 1);
                    case 1, 2 -> random.nextInt(200);
                    default -> random.nextInt(8);
                };
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            // Letters and a few multi-byte characters; repetitive enough to compress.
            sb.append(random.nextInt(50) == 0 ? 'é' : (char) ('a' + random.nextInt(6)));
        }
        return sb.toString();
    }

    static LogFileInfo write(String path, LogWriterOptions options, List<BinaryRow> rows)
            throws IOException {
        LogFileWriter writer = new LogFileWriter(IO.newOutputFile(path), options);
        for (BinaryRow row : rows) {
            writer.write(row);
        }
        return writer.close();
    }

    /** Reads every row of a file, as owned copies. */
    static List<BinaryRow> readAll(InputFile file, int arity) throws IOException {
        List<BinaryRow> rows = new ArrayList<>();
        try (LogFileReader reader = LogFileReader.open(file, arity)) {
            while (reader.next()) {
                rows.add(reader.row().copy());
            }
        }
        return rows;
    }

    static List<BinaryRow> readAll(String path, int arity) throws IOException {
        return readAll(IO.newInputFile(path), arity);
    }

    /** A part of a log file found by walking it as docs/format.md describes. */
    record Section(String kind, long start, long end) {
        boolean contains(long offset) {
            return offset >= start && offset < end;
        }
    }

    /** The header, the blocks and the footer of an intact file. */
    static List<Section> sections(byte[] file) {
        List<Section> sections = new ArrayList<>();
        sections.add(new Section("header", 0, 8));
        int footer = file.length - 20;
        int at = 8;
        while (at < footer) {
            int end = at + 8 + LittleEndian.getInt(file, at + 4) + 4;
            sections.add(new Section("block", at, end));
            at = end;
        }
        sections.add(new Section("footer", footer, file.length));
        return sections;
    }

    /** Recomputes the CRC-32C of the block (or footer) section after an edit. */
    static void fixCrc(byte[] file, Section section) {
        int crcAt = (int) section.end() - 4;
        CRC32C crc = new CRC32C();
        crc.update(file, (int) section.start(), crcAt - (int) section.start());
        LittleEndian.putInt(file, crcAt, (int) crc.getValue());
    }

    /**
     * A file held in memory, for reading thousands of damaged copies of a file quickly; it has the
     * path of the original so that errors name it.
     */
    static InputFile inMemoryFile(String path, byte[] bytes) {
        return new ByteArrayInputFile(path, bytes);
    }

    /** An output file that counts and discards its bytes. */
    static OutputFile discardingFile() {
        return new OutputFile() {
            @Override
            public String path() {
                return "discard";
            }

            @Override
            public PositionOutputStream create() {
                return new PositionOutputStream() {
                    private long pos;

                    @Override
                    public long getPos() {
                        return pos;
                    }

                    @Override
                    public void write(int b) {
                        pos++;
                    }

                    @Override
                    public void write(byte[] b, int off, int len) {
                        pos += len;
                    }
                };
            }
        };
    }
}
