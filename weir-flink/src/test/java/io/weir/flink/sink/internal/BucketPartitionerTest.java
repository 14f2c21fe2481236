package io.weir.flink.sink.internal;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.flink.FlinkRows;
import io.weir.flink.FlinkTypes;
import io.weir.partition.PartitionHash;

import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class BucketPartitionerTest {
    private static final RowType TYPE =
            RowType.of(
                    new BigIntType(false),
                    new VarCharType(false, VarCharType.MAX_LENGTH),
                    new BigIntType());

    @Test
    void bucketsOfAPartitionSpreadEvenlyOverTheWriters() {
        for (int channels = 1; channels <= 8; channels++) {
            for (int hash : new int[] {0, 7, -13, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
                int[] load = new int[channels];
                for (int bucket = 0; bucket < 4 * channels; bucket++) {
                    int c = BucketPartitioner.channel(hash, bucket, channels);
                    assertThat(c).isBetween(0, channels - 1);
                    load[c]++;
                }
                for (int l : load) {
                    assertThat(l).isEqualTo(4);
                }
            }
        }
    }

    /**
     * Every row of a file group goes to one channel, whatever its other fields and however it is
     * represented; and the bucket is the one the table's writer computes.
     */
    @Test
    void aFileGroupGoesToOneWriter() {
        int[] key = {0, 1};
        int[] partition = {1};
        int buckets = 4;
        BucketPartitioner partitioner = new BucketPartitioner(TYPE, key, partition, buckets);
        partitioner.setup(3);
        SerializationDelegate<StreamRecord<RowData>> delegate = new SerializationDelegate<>(null);
        RowDataSerializer serializer = new RowDataSerializer(TYPE);
        KeyFields keyFields = KeyFields.of(FlinkTypes.toWeir(TYPE), key);
        KeyFields partFields = KeyFields.of(FlinkTypes.toWeir(TYPE), partition);
        FlinkRows.ToWeir toWeir = new FlinkRows.ToWeir(TYPE);
        Map<List<Object>, Integer> channelOf = new HashMap<>();
        Set<Integer> used = new HashSet<>();
        for (long id = 0; id < 200; id++) {
            for (String dt : List.of("2024-01-01", "2024-01-02", "a partition value > 7 bytes")) {
                GenericRowData generic =
                        GenericRowData.of(id, StringData.fromString(dt), id * 7 % 3);
                for (RowData row : List.of(generic, serializer.toBinaryRow(generic).copy())) {
                    delegate.setInstance(new StreamRecord<>(row));
                    int channel = partitioner.selectChannel(delegate);
                    BinaryRow weir = toWeir.convert(row);
                    int bucket = keyFields.bucket(weir, buckets);
                    List<Object> group = List.of(dt, bucket);
                    assertThat(channelOf.computeIfAbsent(group, g -> channel))
                            .as("writer of %s", group)
                            .isEqualTo(channel);
                    assertThat(channel)
                            .isEqualTo(BucketPartitioner.channel(partFields.hash(weir), bucket, 3));
                    used.add(channel);
                }
            }
        }
        assertThat(channelOf).hasSize(12);
        assertThat(used).containsExactlyInAnyOrder(0, 1, 2);
    }

    /**
     * A row that is not binary leaves the partitioner in binary form (the record writer then
     * serializes its bytes instead of converting it again): same kind, same bytes as Flink's
     * conversion, same timestamp. A binary row is left as it is.
     */
    @Test
    void theRecordCarriesTheBinaryRowToTheSerializer() {
        BucketPartitioner partitioner = new BucketPartitioner(TYPE, new int[] {0}, new int[0], 4);
        partitioner.setup(2);
        SerializationDelegate<StreamRecord<RowData>> delegate = new SerializationDelegate<>(null);
        GenericRowData generic =
                GenericRowData.ofKind(
                        org.apache.flink.types.RowKind.UPDATE_AFTER,
                        42L,
                        StringData.fromString("a value longer than seven bytes"),
                        null);
        StreamRecord<RowData> record = new StreamRecord<>(generic, 1234L);
        delegate.setInstance(record);
        partitioner.selectChannel(delegate);
        BinaryRowData expected = new RowDataSerializer(TYPE).toBinaryRow(generic);
        assertThat(record.getValue()).isInstanceOf(BinaryRowData.class).isEqualTo(expected);
        assertThat(record.getValue().getRowKind())
                .isEqualTo(org.apache.flink.types.RowKind.UPDATE_AFTER);
        assertThat(record.getTimestamp()).isEqualTo(1234L);

        BinaryRowData binary = expected.copy();
        StreamRecord<RowData> binaryRecord = new StreamRecord<>(binary);
        delegate.setInstance(binaryRecord);
        partitioner.selectChannel(delegate);
        assertThat(binaryRecord.getValue()).isSameAs(binary);
    }

    /**
     * Time partitions: the partition hash is the period's, from the time column (the derived column
     * of an incoming row holds anything), so a file group (day, bucket) has one writer.
     */
    @Test
    void aTimePartitionGoesToOneWriterWhateverItsDerivedColumnHolds() {
        io.weir.Schema schema =
                new io.weir.Schema(
                        io.weir.types.RowType.of(
                                "id", io.weir.types.DataTypes.BIGINT(),
                                "ts", io.weir.types.DataTypes.TIMESTAMP_LTZ(3),
                                "dt", io.weir.types.DataTypes.DATE()),
                        List.of("id", "ts"),
                        List.of("dt"));
        io.weir.partition.TimePartitioning time =
                io.weir.partition.TimePartitioning.of(
                        schema,
                        io.weir.options.TableOptions.of(
                                Map.of(
                                        "partition.time.column", "ts",
                                        "partition.time.zone", "America/New_York")));
        RowType type = FlinkTypes.toFlink(schema);
        int buckets = 4;
        BucketPartitioner partitioner =
                new BucketPartitioner(
                        type, new int[] {0, 1}, PartitionHash.of(schema, time), buckets);
        partitioner.setup(5);
        SerializationDelegate<StreamRecord<RowData>> delegate = new SerializationDelegate<>(null);
        KeyFields keyFields = KeyFields.of(schema.rowType(), new int[] {0, 1});
        FlinkRows.ToWeir toWeir = new FlinkRows.ToWeir(type);
        Map<List<Object>, Integer> channelOf = new HashMap<>();
        java.time.ZoneId zone = java.time.ZoneId.of("America/New_York");
        long start = java.time.Instant.parse("2024-11-02T20:00:00Z").toEpochMilli();
        for (int i = 0; i < 2000; i++) {
            long millis = start + i * 97_000L; // over two days and a fall-back change
            GenericRowData row =
                    GenericRowData.of(
                            (long) i,
                            org.apache.flink.table.data.TimestampData.fromEpochMillis(millis),
                            i % 2 == 0 ? null : i);
            delegate.setInstance(new StreamRecord<>(row));
            int channel = partitioner.selectChannel(delegate);
            int bucket = keyFields.bucket(toWeir.convert(row), buckets);
            List<Object> group =
                    List.of(
                            java.time.LocalDate.ofInstant(
                                    java.time.Instant.ofEpochMilli(millis), zone),
                            bucket);
            assertThat(channelOf.computeIfAbsent(group, g -> channel))
                    .as("writer of %s", group)
                    .isEqualTo(channel);
        }
        assertThat(channelOf).hasSize(3 * buckets);
    }
}
