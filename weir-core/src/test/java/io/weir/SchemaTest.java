package io.weir;

import io.weir.exceptions.ValidationException;
import io.weir.options.TableOptions;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.weir.types.DataTypes.BIGINT;
import static io.weir.types.DataTypes.DATE;
import static io.weir.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaTest {

    @Test
    void primaryKeyColumnsBecomeNotNull() {
        Schema schema =
                Schema.builder()
                        .column("id", BIGINT())
                        .column("dt", DATE())
                        .column("v", STRING())
                        .primaryKey("dt", "id")
                        .partitionKeys("dt")
                        .build();
        assertThat(schema.rowType().type(0).nullable()).isFalse();
        assertThat(schema.rowType().type(1).nullable()).isFalse();
        assertThat(schema.rowType().type(2).nullable()).isTrue();
        assertThat(schema.primaryKeyPositions()).containsExactly(1, 0);
        assertThat(schema.partitionKeyPositions()).containsExactly(1);
        assertThat(schema.fields().get(2).id()).isEqualTo(2);
    }

    @Test
    void invalidKeysAreRejectedNamingTheColumn() {
        assertThatThrownBy(() -> Schema.builder().column("id", BIGINT()).primaryKey("key").build())
                .isInstanceOf(ValidationException.class)
                .hasMessage("Invalid primary key: column 'key' does not exist (columns: [id])");
        Schema partitionOutsideKey =
                Schema.builder()
                        .column("id", BIGINT())
                        .column("dt", DATE())
                        .primaryKey("id")
                        .partitionKeys("dt")
                        .build();
        // Checked with the options, which may derive a partition key (time partitions).
        assertThatThrownBy(
                        () -> new TableMetadata(0, partitionOutsideKey, TableOptions.defaults(), 0))
                .isInstanceOf(ValidationException.class)
                .hasMessage(
                        "Invalid partition key: column 'dt' must be part of the primary key [id], so"
                                + " that each key lives in one partition");
        assertThatThrownBy(
                        () ->
                                Schema.builder()
                                        .column("id", BIGINT())
                                        .column("dt", DATE())
                                        .primaryKey("dt")
                                        .partitionKeys("dt")
                                        .build())
                .hasMessage(
                        "Invalid primary key [dt]: it must have a column that is not a partition key");
        assertThatThrownBy(
                        () -> Schema.builder().column("a", BIGINT()).column("a", STRING()).build())
                .hasMessage("Invalid row type: duplicate field name a");
    }

    @Test
    void partitionPathsEscapeValuesAndRoundTrip() {
        List<String> keys = List.of("dt", "region");
        Partition p = Partition.of("2024-01-01", "eu/west=1 %");
        String path = p.path(keys);
        assertThat(path).isEqualTo("dt=2024-01-01/region=eu%2Fwest%3D1+%25");
        assertThat(Partition.fromPath(path, keys)).isEqualTo(p);
        Partition withNull = new Partition(java.util.Arrays.asList("2024-01-01", null));
        assertThat(withNull.path(keys)).isEqualTo("dt=2024-01-01/region=__DEFAULT_PARTITION__");
        assertThat(Partition.fromPath(withNull.path(keys), keys)).isEqualTo(withNull);
    }
}
