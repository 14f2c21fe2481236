package io.weir.bench.e2e.shuffle;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.runtime.io.network.api.writer.SubtaskStateMapper;
import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.Set;

/**
 * The benchmark's second ceiling, {@code 'connector' = 'weir-bench-shuffle'}: what a bucketed sink
 * pays before it writes anything. Each row goes through Flink's network stack to the writer of its
 * bucket (a hash of the first column, a BIGINT key in every workload, modulo {@code buckets}; the
 * bucket's writer is {@code bucket % parallelism}), whose sink drops it. So: Flink's serialization
 * of the row, the shuffle, the deserialization and one more task per subtask, nothing of a table.
 */
public final class ShuffleSinkFactory implements DynamicTableSinkFactory {
    public static final String IDENTIFIER = "weir-bench-shuffle";

    public static final ConfigOption<Integer> BUCKETS =
            ConfigOptions.key("buckets")
                    .intType()
                    .defaultValue(4)
                    .withDescription("Buckets that the rows are hashed into.");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(BUCKETS);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        return new ShuffleSink(helper.getOptions().get(BUCKETS));
    }

    private record ShuffleSink(int buckets) implements DynamicTableSink {
        @Override
        public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
            return requestedMode;
        }

        @Override
        public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
            return new DataStreamSinkProvider() {
                @Override
                public DataStreamSink<?> consumeDataStream(
                        ProviderContext providerContext, DataStream<RowData> input) {
                    return new DataStream<>(
                                    input.getExecutionEnvironment(),
                                    new PartitionTransformation<>(
                                            input.getTransformation(),
                                            new BucketHashPartitioner(buckets)))
                            .sinkTo(new DiscardingSink<>())
                            .name("Discard after bucket shuffle");
                }
            };
        }

        @Override
        public DynamicTableSink copy() {
            return this;
        }

        @Override
        public String asSummaryString() {
            return IDENTIFIER;
        }
    }

    /** The channel of a row: a hash of its BIGINT key, modulo the buckets, modulo the channels. */
    static final class BucketHashPartitioner extends StreamPartitioner<RowData> {
        private static final long serialVersionUID = 1L;
        private final int buckets;

        BucketHashPartitioner(int buckets) {
            this.buckets = buckets;
        }

        @Override
        public int selectChannel(SerializationDelegate<StreamRecord<RowData>> record) {
            return channel(record.getInstance().getValue().getLong(0), buckets, numberOfChannels);
        }

        static int channel(long key, int buckets, int channels) {
            long h = key * 0x9E3779B97F4A7C15L; // Fibonacci hashing: the high bits mix all of key
            int bucket = (int) ((h >>> 32) % buckets);
            return bucket % channels;
        }

        @Override
        public StreamPartitioner<RowData> copy() {
            return new BucketHashPartitioner(buckets);
        }

        @Override
        public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
            return SubtaskStateMapper.FULL;
        }

        @Override
        public boolean isPointwise() {
            return false;
        }

        @Override
        public String toString() {
            return "BUCKET_HASH";
        }
    }
}
