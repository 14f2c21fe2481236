package io.weir.flink.compaction;

import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.exceptions.ValidationException;
import io.weir.types.DataTypes;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code --partition} of the compaction job and {@code weir compact}: FLOAT and DOUBLE keys match
 * by value (docs/format.md §2.3), so a partition an older writer named with other digits is found
 * by its canonical text; other keys by their text.
 */
class PartitionFilterTest {
    private static final Schema SCHEMA =
            Schema.builder()
                    .column("id", DataTypes.INT().notNull())
                    .column("p", DataTypes.DOUBLE().notNull())
                    .column("f", DataTypes.FLOAT().notNull())
                    .column("s", DataTypes.STRING().notNull())
                    .primaryKey("id", "p", "f", "s")
                    .partitionKeys("p", "f", "s")
                    .build();

    private static FileGroupId group(String p, String f, String s) {
        return new FileGroupId(Partition.of(p, f, s), 0);
    }

    @Test
    void floatingKeysMatchByValue() {
        PartitionFilter filter = PartitionFilter.parse("p=1.0E23,f=2.8287938E17", SCHEMA);
        assertThat(filter.test(group("9.999999999999999E22", "2.82879379E17", "a"))).isTrue();
        assertThat(filter.test(group("1.0E23", "2.8287938E17", "b"))).isTrue();
        assertThat(filter.test(group("1.5", "2.8287938E17", "a"))).isFalse();
        assertThat(filter.test(group("1.0E23", "2.8E17", "a"))).isFalse();
        // -0.0 is 0.0; NaN is NaN.
        assertThat(PartitionFilter.parse("p=0.0", SCHEMA).test(group("-0.0", "1.0", "a"))).isTrue();
        assertThat(PartitionFilter.parse("f=NaN", SCHEMA).test(group("1.0", "NaN", "a"))).isTrue();
        // Other keys by their text.
        assertThat(PartitionFilter.parse("s=a", SCHEMA).test(group("1.0", "1.0", "a"))).isTrue();
        assertThat(PartitionFilter.parse("s=a", SCHEMA).test(group("1.0", "1.0", "A"))).isFalse();
    }

    @Test
    void aValueThatIsNoNumberIsRefused() {
        assertThatThrownBy(() -> PartitionFilter.parse("p=abc", SCHEMA))
                .isInstanceOf(ValidationException.class)
                .hasMessage("Invalid partition 'p=abc': 'abc' is not a DOUBLE value");
    }
}
