package io.weir.write;

import io.weir.BulkWrite;
import io.weir.Schema;
import io.weir.Table;
import io.weir.Tables;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.types.DataTypes;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bulk writer's write path allocates nothing per record: a million rows into a 4 MB buffer,
 * spilled (sort, fold, LZ4, write) as runs whenever it is full, allocate well under a byte per
 * record: what a spill allocates (its file, its run's group extents) is per run.
 */
class BulkWriteAllocationTest {
    private static final RowType TYPE =
            RowType.of(
                    "id", DataTypes.BIGINT(),
                    "name", DataTypes.STRING(),
                    "metric", DataTypes.BIGINT());

    @TempDir Path dir;
    @TempDir Path spill;

    @Test
    void writesAndSpillsAllocateNothingPerRecord() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        Table table =
                Tables.create(
                        dir.resolve("t").toString(),
                        new Schema(TYPE, List.of("id"), List.of()),
                        Map.of("bucket", "4"));
        BinaryRow row = BinaryRowWriter.toRow(TYPE, 0L, "item-name-of-some-length-0000", 42L);
        int idOffset = row.fieldOffset(0);
        try (BulkWrite write =
                table.newBulkWrite()
                        .writeBufferSize(4L << 20)
                        .spillDirectory(spill.toString())
                        .create()) {
            long state = 12345;
            int records = 1_000_000;
            long before = 0;
            for (int i = -200_000; i < records; i++) {
                if (i == 0) { // after a warm-up: pages created, code compiled
                    before = threads.getCurrentThreadAllocatedBytes();
                }
                state = state * 6364136223846793005L + 1442695040888963407L;
                LittleEndian.putLong(row.bytes(), idOffset, (state >>> 33) % 2_000_000);
                write.write(row);
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(write.stats().flushes()).isGreaterThan(10);
            assertThat((double) allocated / records)
                    .as("bytes allocated per record (%s in total)", allocated)
                    .isLessThan(1.0);
        }
    }
}
