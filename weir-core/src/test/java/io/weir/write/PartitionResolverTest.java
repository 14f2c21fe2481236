package io.weir.write;

import io.weir.Partition;
import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.types.DataTypes;

import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionResolverTest {

    @Test
    void samePartitionValuesGetTheSameIdAndPartition() {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.DATE())
                        .column("region", DataTypes.STRING())
                        .primaryKey("id", "dt", "region")
                        .partitionKeys("dt", "region")
                        .build();
        PartitionResolver resolver = new PartitionResolver(schema);
        Map<List<Object>, Integer> model = new HashMap<>();
        Random random = new Random(3);
        for (int i = 0; i < 20_000; i++) {
            LocalDate day = LocalDate.of(2024, 1, 1).plusDays(random.nextInt(40));
            String region = random.nextInt(10) == 0 ? null : "region-number-" + random.nextInt(5);
            BinaryRow row =
                    BinaryRowWriter.toRow(
                            schema.rowType(), (long) i, day, region == null ? "" : region);
            int id = resolver.resolve(row);
            Integer expected =
                    model.putIfAbsent(Arrays.asList(day, region == null ? "" : region), id);
            if (expected != null) {
                assertThat(id).isEqualTo(expected);
            } else {
                assertThat(id).isEqualTo(model.size() - 1);
                assertThat(resolver.partition(id))
                        .isEqualTo(Partition.of(day.toString(), region == null ? "" : region));
            }
        }
        assertThat(resolver.size()).isEqualTo(model.size());
    }

    @Test
    void nullPartitionValuesFormTheirOwnPartition() {
        Schema schema =
                Schema.builder()
                        .column("v", DataTypes.BIGINT())
                        .column("p", DataTypes.INT())
                        .partitionKeys("p")
                        .build();
        PartitionResolver resolver = new PartitionResolver(schema);
        int a = resolver.resolve(BinaryRowWriter.toRow(schema.rowType(), 1L, null));
        int b = resolver.resolve(BinaryRowWriter.toRow(schema.rowType(), 2L, 0));
        int c = resolver.resolve(BinaryRowWriter.toRow(schema.rowType(), 3L, null));
        assertThat(a).isEqualTo(c).isNotEqualTo(b);
        assertThat(resolver.partition(a)).isEqualTo(new Partition(Arrays.asList((String) null)));
    }

    @Test
    void unpartitionedTablesHaveOnePartition() {
        Schema schema = Schema.builder().column("v", DataTypes.BIGINT()).build();
        PartitionResolver resolver = new PartitionResolver(schema);
        assertThat(resolver.resolve(BinaryRowWriter.toRow(schema.rowType(), 1L))).isZero();
        assertThat(resolver.partition(0)).isEqualTo(Partition.UNPARTITIONED);
    }
}
