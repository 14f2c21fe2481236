package io.weir.commit;

import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.exceptions.CorruptFileException;
import io.weir.options.TableOptions;
import io.weir.testing.MetadataText;
import io.weir.testing.TestDataFiles;
import io.weir.types.DataTypes;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableMetadataParserTest {
    private static final String FILE = "/t/_weir/schemas/0.json";

    @Test
    void roundTripsEveryType() {
        Schema schema =
                Schema.builder()
                        .column("b", DataTypes.BOOLEAN())
                        .column("i8", DataTypes.TINYINT())
                        .column("i16", DataTypes.SMALLINT())
                        .column("i32", DataTypes.INT().notNull())
                        .column("i64", DataTypes.BIGINT())
                        .column("f", DataTypes.FLOAT())
                        .column("d", DataTypes.DOUBLE())
                        .column("dec", DataTypes.DECIMAL(38, 10), "money")
                        .column("c", DataTypes.CHAR(3))
                        .column("vc", DataTypes.VARCHAR(20))
                        .column("s", DataTypes.STRING())
                        .column("bin", DataTypes.BINARY(4))
                        .column("vb", DataTypes.VARBINARY(9))
                        .column("bytes", DataTypes.BYTES())
                        .column("day", DataTypes.DATE())
                        .column("t", DataTypes.TIME(3))
                        .column("ts", DataTypes.TIMESTAMP(9))
                        .column("ltz", DataTypes.TIMESTAMP_LTZ(3))
                        .primaryKey("i64", "day")
                        .partitionKeys("day")
                        .build();
        TableMetadata metadata =
                new TableMetadata(
                        3,
                        schema,
                        TableOptions.of(Map.of("bucket", "8", "log.codec", "zstd")),
                        1_700_000_000_123L);

        String json = TableMetadataParser.toJson(metadata);
        TableMetadata parsed = TableMetadataParser.fromJson(FILE, json);

        assertThat(parsed).isEqualTo(metadata);
        assertThat(parsed.schema().fields().get(7).description()).isEqualTo("money");
        assertThat(TableMetadataParser.toJson(parsed)).isEqualTo(json);
        assertThat(json)
                .startsWith("{\n  \"checksum\" : \"crc32c:")
                .contains("\",\n  \"format-version\" : 1,\n")
                .contains("\"type\" : \"BIGINT NOT NULL\"")
                .contains("\"type\" : \"DECIMAL(38, 10)\"")
                .contains("\"primary-key\" : [ \"i64\", \"day\" ]")
                .contains("\"bucket\" : \"8\"");
    }

    @Test
    void rejectsUnknownFormatVersion() {
        String json =
                MetadataText.withoutChecksum(
                                TableMetadataParser.toJson(TestDataFiles.metadata(Map.of())))
                        .replace("\"format-version\" : 1", "\"format-version\" : 2");
        assertThatThrownBy(() -> TableMetadataParser.fromJson(FILE, json))
                .isInstanceOf(CorruptFileException.class)
                .hasMessage(
                        "Corrupt file "
                                + FILE
                                + ": unsupported format-version 2: this version of Weir reads"
                                + " format-version 1");
    }

    @Test
    void namesTheBadField() {
        String json =
                MetadataText.withoutChecksum(
                        TableMetadataParser.toJson(TestDataFiles.metadata(Map.of())));
        assertThatThrownBy(
                        () ->
                                TableMetadataParser.fromJson(
                                        FILE, json.replace("\"DECIMAL(10, 2)\"", "\"MONEY\"")))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(FILE)
                .hasMessageContaining("field 'schema.fields[2].type'")
                .hasMessageContaining("unknown type MONEY");
        assertThatThrownBy(
                        () ->
                                TableMetadataParser.fromJson(
                                        FILE, json.replace("\"created-millis\"", "\"created\"")))
                .isInstanceOf(CorruptFileException.class)
                .hasMessage("Corrupt file " + FILE + ": field 'created-millis' is missing");
        assertThatThrownBy(
                        () ->
                                TableMetadataParser.fromJson(
                                        FILE,
                                        json.replace("\"schema-id\" : 0", "\"schema-id\" : \"0\"")))
                .hasMessageContaining("field 'schema-id': expected a 32-bit integer, got string");
        assertThatThrownBy(
                        () ->
                                TableMetadataParser.fromJson(
                                        FILE,
                                        json.replace(
                                                "\"options\" : { }",
                                                "\"options\" : { \"bucket\" : \"x\" }")))
                .hasMessageContaining("field 'options'");
    }

    @Test
    void rejectsMalformedJsonWithItsOffset() {
        String json =
                MetadataText.withoutChecksum(
                        TableMetadataParser.toJson(TestDataFiles.metadata(Map.of())));
        String truncated = json.substring(0, json.length() / 2);
        assertThatThrownBy(() -> TableMetadataParser.fromJson(FILE, truncated))
                .isInstanceOfSatisfying(
                        CorruptFileException.class,
                        e -> {
                            assertThat(e.path()).isEqualTo(FILE);
                            assertThat(e.offset()).isPositive();
                        })
                .hasMessageContaining("malformed JSON");
        assertThatThrownBy(() -> TableMetadataParser.fromJson(FILE, ""))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("empty file");
        assertThatThrownBy(() -> TableMetadataParser.fromJson(FILE, "[1, 2]"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("expected a JSON object");
        assertThatThrownBy(() -> TableMetadataParser.fromJson(FILE, json + "{}"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("malformed JSON");
    }
}
