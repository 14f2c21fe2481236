package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.options.LogCodec;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The append path allocates nothing per record (no timing assertions). */
class LogFileWriterAllocationTest {
    private static final int WARM_UP = 200_000;
    private static final int MEASURED = 1_000_000;

    @ParameterizedTest
    @EnumSource(LogCodec.class)
    void appendingRawRowsAllocatesNothing(LogCodec codec) throws IOException {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<BinaryRow> rows = LogTestSupport.randomRows(new Random(17), 64, 30);
        byte[] page = new byte[rows.stream().mapToInt(BinaryRow::sizeInBytes).sum()];
        int[] offsets = new int[rows.size()];
        int[] lengths = new int[rows.size()];
        int at = 0;
        for (int i = 0; i < rows.size(); i++) {
            rows.get(i).copyTo(page, at);
            offsets[i] = at;
            lengths[i] = rows.get(i).sizeInBytes();
            at += lengths[i];
        }
        LogFileWriter writer =
                new LogFileWriter(
                        LogTestSupport.discardingFile(),
                        new LogWriterOptions(0, LogTestSupport.TYPE.size(), codec, 64 << 10));
        // Warm up: the JIT compiles the path and the buffers reach their steady size.
        for (int i = 0; i < WARM_UP; i++) {
            writer.write(page, offsets[i & 63], lengths[i & 63]);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < MEASURED; i++) {
            writer.write(page, offsets[i & 63], lengths[i & 63]);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        writer.close();

        assertThat(writer.recordCount()).isEqualTo(WARM_UP + MEASURED);
        assertThat((double) allocated / MEASURED)
                .as("bytes allocated per record (%d in all)", allocated)
                .isLessThan(0.01);
    }
}
