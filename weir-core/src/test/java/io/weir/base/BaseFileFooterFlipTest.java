package io.weir.base;

import io.weir.Schema;
import io.weir.data.Timestamp;
import io.weir.exceptions.CorruptFileException;
import io.weir.io.LocalFileIO;
import io.weir.options.BaseFileCompression;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Flips every byte of a base file's footer (the Thrift FileMetaData: schema elements, row groups,
 * column chunks, key-value metadata) and checks that each damaged file either fails to read with a
 * {@link CorruptFileException} naming the file, or reads back exactly the rows written: never other
 * rows, never a column silently read as nulls.
 */
class BaseFileFooterFlipTest {
    private static final Schema SCHEMA =
            Schema.builder()
                    .column("id", DataTypes.BIGINT())
                    .column("name", DataTypes.STRING())
                    .column("qty", DataTypes.INT().notNull())
                    .column("price", DataTypes.DECIMAL(10, 2))
                    .column("big", DataTypes.DECIMAL(30, 4))
                    .column("ok", DataTypes.BOOLEAN())
                    .column("ts", DataTypes.TIMESTAMP(9))
                    .column("ltz", DataTypes.TIMESTAMP_LTZ(3))
                    .column("d", DataTypes.DOUBLE())
                    .column("day", DataTypes.DATE().notNull())
                    .primaryKey("id")
                    .build();

    private static final RowType ROW_TYPE = SCHEMA.rowType();

    /** XOR masks applied to each footer byte, one at a time. */
    private static final int[] MASKS = {0xFF, 0x01};

    @TempDir Path dir;
    private final LocalFileIO io = new LocalFileIO();

    @Test
    void everyFlippedFooterByteIsDetectedOrHarmless() throws IOException {
        flipFooter(SCHEMA, ROW_TYPE, rows(), "small.parquet", null);
    }

    /** The schema elements of a column of every type: up to the last column's name. */
    @Test
    void everyFlippedSchemaByteOfAllTypesIsDetectedOrHarmless() throws IOException {
        flipFooter(
                AllTypes.SCHEMA, AllTypes.ROW_TYPE, AllTypes.rows(12), "all-types.parquet", "uniq");
    }

    @Test
    void aDamagedFieldIdIsACorruptFileNamingTheColumn() throws IOException {
        Path file = write(SCHEMA, ROW_TYPE, rows(), "id.parquet");
        rewriteFooter(file, footer -> footer.getSchema().get(4).setField_id(12)); // price: 3

        assertThatThrownBy(() -> read(file.toString(), ROW_TYPE))
                .isInstanceOfSatisfying(
                        CorruptFileException.class,
                        e -> assertThat(e.path()).isEqualTo(file.toString()))
                .hasMessageContaining(file.toString())
                .hasMessageContaining("price (field id 3, type DECIMAL(10, 2))")
                .hasMessageContaining("'optional int64 price (DECIMAL(10,2)) = 3'")
                .hasMessageContaining("'optional int64 price (DECIMAL(10,2)) = 12'");
    }

    @Test
    void aDamagedColumnTypeIsACorruptFileNamingExpectedAndFoundType() throws IOException {
        Path file = write(SCHEMA, ROW_TYPE, rows(), "typed.parquet");
        rewriteFooter(file, footer -> footer.getSchema().get(9).setType(Type.FLOAT)); // d

        assertThatThrownBy(() -> read(file.toString(), ROW_TYPE))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("d (field id 8, type DOUBLE)")
                .hasMessageContaining("'optional double d = 8'")
                .hasMessageContaining("'optional float d = 8'");
    }

    @Test
    void aDamagedRepetitionIsACorruptFile() throws IOException {
        Path file = write(SCHEMA, ROW_TYPE, rows(), "repetition.parquet");
        rewriteFooter(
                file,
                footer ->
                        footer.getSchema().get(3).setRepetition_type(FieldRepetitionType.OPTIONAL));

        assertThatThrownBy(() -> read(file.toString(), ROW_TYPE))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("qty (field id 2, type INT NOT NULL)")
                .hasMessageContaining("'required int32 qty = 2'")
                .hasMessageContaining("'optional int32 qty = 2'");
    }

    @Test
    void aMissingColumnIsACorruptFile() throws IOException {
        Path file = write(SCHEMA, ROW_TYPE, rows(), "missing.parquet");
        rewriteFooter(
                file,
                footer -> {
                    footer.getSchema().remove(9); // d, nullable: it would read as nulls
                    footer.getSchema().get(0).setNum_children(ROW_TYPE.size() - 1);
                    for (RowGroup rowGroup : footer.getRow_groups()) {
                        rowGroup.getColumns().remove(8);
                    }
                    footer.getColumn_orders().remove(8);
                });

        assertThatThrownBy(() -> read(file.toString(), ROW_TYPE))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("d (field id 8, type DOUBLE)")
                .hasMessageContaining("'optional double d = 8'")
                .hasMessageContaining("'required int32 day (DATE) = 9'");
    }

    /** Replaces the footer of {@code file} with {@code change} applied to it. */
    private static void rewriteFooter(Path file, Consumer<FileMetaData> change) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int start = footerStart(bytes);
        FileMetaData footer =
                Util.readFileMetaData(
                        new ByteArrayInputStream(bytes, start, bytes.length - 8 - start));
        change.accept(footer);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(bytes, 0, start);
        Util.writeFileMetaData(footer, out);
        int length = out.size() - start;
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(length).array());
        out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
        Files.write(file, out.toByteArray());
    }

    private Path write(Schema schema, RowType rowType, List<Object[]> rows, String name) {
        Path file = dir.resolve(name);
        BaseFileWriter writer =
                new BaseFileWriter(
                        io.newOutputFile(file.toString()),
                        schema,
                        BaseFileWriteOptions.of(BaseFileCompression.SNAPPY));
        for (Object[] values : rows) {
            writer.write(AllTypes.toRow(rowType, values));
        }
        writer.close();
        return file;
    }

    private static int footerStart(byte[] bytes) {
        int footerLength =
                ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        return bytes.length - 8 - footerLength;
    }

    private static int indexOf(byte[] bytes, int from, byte[] part) {
        outer:
        for (int i = from; i <= bytes.length - part.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not in the footer: " + Arrays.toString(part));
    }

    /**
     * Flips the footer's bytes, up to the end of the name {@code until} (the whole footer if null).
     */
    private void flipFooter(
            Schema schema, RowType rowType, List<Object[]> rows, String name, String until)
            throws IOException {
        Path file = write(schema, rowType, rows, name);
        byte[] bytes = Files.readAllBytes(file);
        List<List<Object>> expected = read(file.toString(), rowType);
        assertThat(expected).hasSize(rows.size());

        int footerStart = footerStart(bytes);
        int end =
                until == null
                        ? bytes.length - 8
                        : indexOf(bytes, footerStart, until.getBytes(StandardCharsets.US_ASCII))
                                + until.length();
        List<String> undetected = new ArrayList<>();
        int detected = 0;
        int harmless = 0;
        for (int offset = footerStart; offset < end; offset++) {
            for (int mask : MASKS) {
                byte[] corrupt = bytes.clone();
                corrupt[offset] ^= (byte) mask;
                Path damaged = dir.resolve("damaged-" + name);
                Files.write(damaged, corrupt);
                String path = damaged.toString();
                List<List<Object>> read;
                try {
                    read = read(path, rowType);
                } catch (CorruptFileException e) {
                    if (e.path().equals(path) && e.getMessage().contains(path)) {
                        detected++;
                    } else {
                        undetected.add(describe(bytes, offset, mask, "unnamed: " + e));
                    }
                    continue;
                } catch (RuntimeException | Error e) {
                    undetected.add(describe(bytes, offset, mask, e.toString()));
                    continue;
                }
                if (read.equals(expected)) {
                    harmless++;
                } else {
                    undetected.add(
                            describe(
                                    bytes,
                                    offset,
                                    mask,
                                    "different rows: " + diff(expected, read)));
                }
            }
        }
        System.out.printf(
                "%s: %d footer bytes flipped, %d flips detected, %d harmless, %d undetected%n",
                name, end - footerStart, detected, harmless, undetected.size());
        assertThat(undetected).isEmpty();
    }

    private List<List<Object>> read(String path, RowType rowType) {
        List<List<Object>> read = new ArrayList<>();
        try (BaseFileReader reader = new BaseFileReader(io.newInputFile(path), rowType)) {
            while (reader.next()) {
                read.add(AllTypes.comparable(reader.row(), rowType));
            }
        }
        return read;
    }

    private static String diff(List<List<Object>> expected, List<List<Object>> read) {
        if (expected.size() != read.size()) {
            return read.size() + " rows instead of " + expected.size();
        }
        for (int r = 0; r < expected.size(); r++) {
            if (!expected.get(r).equals(read.get(r))) {
                return "row " + r + " " + read.get(r) + " instead of " + expected.get(r);
            }
        }
        return "?";
    }

    private static String describe(byte[] bytes, int offset, int mask, String outcome) {
        int from = Math.max(0, offset - 12);
        int to = Math.min(bytes.length, offset + 12);
        String around =
                new String(bytes, from, to - from, StandardCharsets.ISO_8859_1)
                        .replaceAll("[^\\x20-\\x7e]", ".");
        return String.format("offset %d ^0x%02X (near '%s'): %s", offset, mask, around, outcome);
    }

    private static List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rows.add(
                    new Object[] {
                        (long) i,
                        i % 5 == 0 ? null : "name-" + i,
                        i * 3,
                        i % 4 == 0 ? null : new BigDecimal(i + ".25"),
                        new BigDecimal("12345678901234567890.1234").add(BigDecimal.valueOf(i)),
                        i % 3 == 0 ? null : i % 2 == 0,
                        i % 6 == 0 ? null : new Timestamp(1_700_000_000_000L + i, 123_456 + i),
                        Timestamp.ofMillis(-1_000L * i),
                        i % 7 == 0 ? null : i / 3.0,
                        19_000 + i
                    });
        }
        return rows;
    }
}
