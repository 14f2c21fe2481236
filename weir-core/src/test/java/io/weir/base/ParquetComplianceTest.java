package io.weir.base;

import io.weir.data.Timestamp;
import io.weir.io.LocalFileIO;
import io.weir.options.BaseFileCompression;
import io.weir.types.DataType;
import io.weir.types.RowType;

import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base files are standard Parquet: parquet-java's own reader (its Hadoop-based codecs, its example
 * object model) reads them, with the standard logical types and Weir's field ids.
 */
class ParquetComplianceTest {
    private static final String EXPECTED_SCHEMA =
            """
            message weir {
              required int64 id = 0;
              optional boolean b = 1;
              optional int32 ti (INTEGER(8,true)) = 2;
              optional int32 si (INTEGER(16,true)) = 3;
              optional int32 i = 4;
              optional int64 bi = 5;
              optional float f = 6;
              optional double d = 7;
              optional int32 dec9 (DECIMAL(9,2)) = 8;
              optional int64 dec18 (DECIMAL(18,4)) = 9;
              optional fixed_len_byte_array(9) dec20 (DECIMAL(20,5)) = 10;
              optional fixed_len_byte_array(16) dec38 (DECIMAL(38,0)) = 11;
              optional fixed_len_byte_array(16) dec38s (DECIMAL(38,18)) = 12;
              optional binary ch (STRING) = 13;
              optional binary vc (STRING) = 14;
              optional binary s (STRING) = 15;
              optional binary bin = 16;
              optional binary vb = 17;
              optional int32 date (DATE) = 18;
              optional int32 time (TIME(MILLIS,false)) = 19;
              optional int64 ts0 (TIMESTAMP(MILLIS,false)) = 20;
              optional int64 ts3 (TIMESTAMP(MILLIS,false)) = 21;
              optional int64 ts6 (TIMESTAMP(MICROS,false)) = 22;
              optional int64 ts9 (TIMESTAMP(NANOS,false)) = 23;
              optional int64 ltz3 (TIMESTAMP(MILLIS,true)) = 24;
              optional int64 ltz6 (TIMESTAMP(MICROS,true)) = 25;
              optional int64 ltz9 (TIMESTAMP(NANOS,true)) = 26;
              required int32 req_i = 27;
              required binary req_s (STRING) = 28;
              required fixed_len_byte_array(16) req_dec38 (DECIMAL(38,10)) = 29;
              required int64 req_ts9 (TIMESTAMP(NANOS,false)) = 30;
              optional binary uniq (STRING) = 31;
            }
            """;

    /** Two's complement widths of FIXED_LEN_BYTE_ARRAY decimals, per the Parquet spec's table. */
    private static final Map<Integer, Integer> DECIMAL_WIDTHS = Map.of(20, 9, 38, 16);

    @TempDir Path dir;

    @ParameterizedTest
    @EnumSource(BaseFileCompression.class)
    void parquetJavaReadsBaseFilesWithStandardTypes(BaseFileCompression compression)
            throws Exception {
        List<Object[]> rows = AllTypes.rows(120);
        Path file = dir.resolve("base.parquet");
        BaseFileWriter writer =
                new BaseFileWriter(
                        new LocalFileIO().newOutputFile(file.toString()),
                        AllTypes.SCHEMA,
                        new BaseFileWriteOptions(compression, 4 << 20, 1024));
        for (Object[] values : rows) {
            writer.write(AllTypes.toRow(AllTypes.ROW_TYPE, values));
        }
        writer.close();

        ParquetMetadata footer;
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            footer = reader.getFooter();
        }
        MessageType schema = footer.getFileMetaData().getSchema();
        assertThat(schema.toString().strip()).isEqualTo(EXPECTED_SCHEMA.strip());
        assertThat(schema.getType("ltz9").getLogicalTypeAnnotation())
                .isEqualTo(LogicalTypeAnnotation.timestampType(true, TimeUnit.NANOS));
        assertThat(schema.getType("dec38s").getLogicalTypeAnnotation())
                .isEqualTo(LogicalTypeAnnotation.decimalType(18, 38));
        for (int c = 0; c < AllTypes.ROW_TYPE.size(); c++) {
            Type column = schema.getType(c);
            assertThat(column.getId().intValue()).isEqualTo(AllTypes.ROW_TYPE.field(c).id());
        }
        assertThat(footer.getFileMetaData().getKeyValueMetaData())
                .containsEntry("weir.format-version", "1")
                .containsEntry("weir.primary-key", "0");
        // The table's codec, or none where a chunk does not compress (RowGroupPages).
        List<CompressionCodecName> codecs =
                footer.getBlocks().get(0).getColumns().stream()
                        .map(ColumnChunkMetaData::getCodec)
                        .toList();
        assertThat(codecs)
                .contains(codec(compression))
                .allMatch(c -> c == codec(compression) || c == CompressionCodecName.UNCOMPRESSED);

        List<Group> groups = new ArrayList<>();
        try (ParquetReader<Group> reader = groupReader(file)) {
            for (Group g = reader.read(); g != null; g = reader.read()) {
                groups.add(g);
            }
        }
        assertThat(groups).hasSize(rows.size());
        RowType type = AllTypes.ROW_TYPE;
        for (int k = 0; k < rows.size(); k++) {
            for (int c = 0; c < type.size(); c++) {
                Object expected = standardValue(rows.get(k)[c], type.type(c));
                Object actual = groupValue(groups.get(k), c, type.type(c));
                assertThat(actual)
                        .as("row %d column %s", k, type.field(c).name())
                        .isEqualTo(expected);
            }
        }
    }

    /**
     * The other direction: a file written by parquet-java's own writer (Hadoop codecs, v2 data
     * pages) with the standard schema reads back into the same Weir values.
     */
    @ParameterizedTest
    @EnumSource(BaseFileCompression.class)
    void baseFileReaderReadsFilesOfParquetJavasWriter(BaseFileCompression compression)
            throws Exception {
        List<Object[]> rows = AllTypes.rows(120);
        Path file = dir.resolve("stock.parquet");
        MessageType schema = MessageTypeParser.parseMessageType(EXPECTED_SCHEMA);
        RowType type = AllTypes.ROW_TYPE;
        try (ParquetWriter<Group> writer =
                ExampleParquetWriter.builder(new LocalOutputFile(file))
                        .withType(schema)
                        .withCompressionCodec(codec(compression))
                        .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
                        .withPageSize(1024)
                        .build()) {
            SimpleGroupFactory groups = new SimpleGroupFactory(schema);
            for (Object[] values : rows) {
                Group group = groups.newGroup();
                for (int c = 0; c < type.size(); c++) {
                    Object v = standardValue(values[c], type.type(c));
                    boolean hex = !type.type(c).root().isCharacterString();
                    ParquetGroups.add(
                            group,
                            c,
                            v instanceof String str && hex
                                    ? Binary.fromConstantByteArray(HexFormat.of().parseHex(str))
                                    : v);
                }
                writer.write(group);
            }
        }

        List<List<Object>> read = new ArrayList<>();
        try (BaseFileReader reader =
                new BaseFileReader(new LocalFileIO().newInputFile(file.toString()), type)) {
            while (reader.next()) {
                read.add(AllTypes.comparable(reader.row(), type));
            }
        }
        assertThat(read).hasSize(rows.size());
        for (int k = 0; k < rows.size(); k++) {
            assertThat(read.get(k)).as("row %d", k).isEqualTo(AllTypes.comparable(rows.get(k)));
        }
    }

    private static ParquetReader<Group> groupReader(Path file) throws Exception {
        return new ParquetReader.Builder<Group>(new LocalInputFile(file)) {
            @Override
            protected ReadSupport<Group> getReadSupport() {
                return new GroupReadSupport();
            }
        }.build();
    }

    private static CompressionCodecName codec(BaseFileCompression compression) {
        return CompressionCodecName.valueOf(compression.name());
    }

    /** A value as a Parquet reader sees it, computed from the Weir value and the spec. */
    private static Object standardValue(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        return switch (type.root()) {
            case TINYINT -> (int) (Byte) value;
            case SMALLINT -> (int) (Short) value;
            case DECIMAL -> {
                BigInteger unscaled = ((BigDecimal) value).unscaledValue();
                if (type.precision() <= 9) {
                    yield unscaled.intValueExact();
                } else if (type.precision() <= 18) {
                    yield unscaled.longValueExact();
                }
                byte[] minimal = unscaled.toByteArray();
                byte[] fixed = new byte[DECIMAL_WIDTHS.get(type.precision())];
                Arrays.fill(fixed, unscaled.signum() < 0 ? (byte) -1 : 0);
                System.arraycopy(minimal, 0, fixed, fixed.length - minimal.length, minimal.length);
                yield HexFormat.of().formatHex(fixed);
            }
            case BINARY, VARBINARY -> HexFormat.of().formatHex((byte[]) value);
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                Duration sinceEpoch =
                        Duration.between(Instant.EPOCH, ((Timestamp) value).toInstant());
                if (type.precision() <= 3) {
                    yield sinceEpoch.toMillis();
                } else if (type.precision() <= 6) {
                    yield Math.addExact(
                            Math.multiplyExact(sinceEpoch.getSeconds(), 1_000_000L),
                            sinceEpoch.getNano() / 1000);
                }
                yield sinceEpoch.toNanos();
            }
            default -> value;
        };
    }

    private static Object groupValue(Group group, int c, DataType type) {
        if (group.getFieldRepetitionCount(c) == 0) {
            return null;
        }
        return switch (type.root()) {
            case BOOLEAN -> group.getBoolean(c, 0);
            case TINYINT, SMALLINT, INT, DATE, TIME -> group.getInteger(c, 0);
            case BIGINT, TIMESTAMP, TIMESTAMP_LTZ -> group.getLong(c, 0);
            case FLOAT -> group.getFloat(c, 0);
            case DOUBLE -> group.getDouble(c, 0);
            case DECIMAL -> {
                if (type.precision() <= 9) {
                    yield group.getInteger(c, 0);
                } else if (type.precision() <= 18) {
                    yield group.getLong(c, 0);
                }
                yield HexFormat.of().formatHex(group.getBinary(c, 0).getBytes());
            }
            case CHAR, VARCHAR -> group.getString(c, 0);
            case BINARY, VARBINARY -> HexFormat.of().formatHex(group.getBinary(c, 0).getBytes());
        };
    }
}
