package io.weir.bench.e2e.shuffle;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BucketHashPartitionerTest {
    /** The keys of the workloads, [0, rows / 5), spread evenly over the buckets and writers. */
    @Test
    void keysSpreadEvenlyOverBucketsAndChannels() {
        int buckets = 4;
        for (int channels : new int[] {1, 2, 3, 4}) {
            int[] load = new int[channels];
            for (long key = 0; key < 400_000; key++) {
                int channel =
                        ShuffleSinkFactory.BucketHashPartitioner.channel(key, buckets, channels);
                assertThat(channel).isBetween(0, channels - 1);
                load[channel]++;
            }
            int bucketsPerChannelMin = buckets / channels;
            for (int c = 0; c < channels; c++) {
                int bucketsHere = bucketsPerChannelMin + (c < buckets % channels ? 1 : 0);
                assertThat((double) load[c])
                        .as("rows of channel %d of %d", c, channels)
                        .isCloseTo(
                                100_000.0 * bucketsHere,
                                org.assertj.core.data.Offset.offset(2_000.0));
            }
        }
    }
}
