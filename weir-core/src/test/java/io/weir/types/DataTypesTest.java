package io.weir.types;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataTypesTest {

    @Test
    void sqlFormRoundTripsForEveryType() {
        List<DataType> types =
                List.of(
                        DataTypes.BOOLEAN(),
                        DataTypes.TINYINT(),
                        DataTypes.SMALLINT(),
                        DataTypes.INT().notNull(),
                        DataTypes.BIGINT(),
                        DataTypes.FLOAT(),
                        DataTypes.DOUBLE(),
                        DataTypes.DECIMAL(38, 10),
                        DataTypes.DECIMAL(5, 0).notNull(),
                        DataTypes.CHAR(3),
                        DataTypes.VARCHAR(20),
                        DataTypes.STRING().notNull(),
                        DataTypes.BINARY(4),
                        DataTypes.VARBINARY(9),
                        DataTypes.BYTES(),
                        DataTypes.DATE(),
                        DataTypes.TIME(3),
                        DataTypes.TIMESTAMP(9),
                        DataTypes.TIMESTAMP_LTZ(3).notNull());
        for (DataType t : types) {
            assertThat(DataTypes.parse(t.toString())).as(t.toString()).isEqualTo(t);
        }
        assertThat(DataTypes.parse("integer not null")).isEqualTo(DataTypes.INT().notNull());
        assertThat(DataTypes.parse("TIMESTAMP WITH LOCAL TIME ZONE(6)"))
                .isEqualTo(DataTypes.TIMESTAMP_LTZ(6));
    }

    @Test
    void invalidTypesAreRejectedWithTheReason() {
        assertThatThrownBy(() -> DataTypes.parse("DECIMAL(40, 2)"))
                .hasMessage(
                        "Cannot parse data type: 'DECIMAL(40, 2)': Invalid DECIMAL type: precision"
                                + " must be between 1 and 38");
        assertThatThrownBy(() -> DataTypes.parse("BIGINT(3)"))
                .hasMessage("Cannot parse data type: 'BIGINT(3)': BIGINT takes no arguments");
        assertThatThrownBy(() -> DataTypes.parse("JSON"))
                .hasMessage("Cannot parse data type: 'JSON': unknown type JSON");
    }
}
