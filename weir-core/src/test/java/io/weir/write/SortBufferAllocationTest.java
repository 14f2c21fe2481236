package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.memory.MemoryPool;
import io.weir.types.DataTypes;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The append and iteration paths allocate nothing per record: after a warm-up, a million appends
 * (300,000 for the slower variants), with flushes (sort, a full cursor pass, clear) whenever the
 * pool is full, allocate well under a byte per record. A behaviour check, not a timing one.
 */
class SortBufferAllocationTest {
    private static final RowType TYPE =
            RowType.of(
                    "id", DataTypes.BIGINT(),
                    "name", DataTypes.STRING(),
                    "metric", DataTypes.BIGINT(),
                    "ts", DataTypes.TIMESTAMP(3));

    @Test
    void appendAndIterationAllocateNothingPerRecord() {
        assertAllocationFree(KeyFields.of(TYPE, new int[] {0}), 1_000_000);
    }

    @Test
    void stringKeysAllocateNothingPerRecordEither() {
        // Every comparison goes to the rows: the names share their first 8 bytes.
        assertAllocationFree(KeyFields.of(TYPE, new int[] {1, 0}), 300_000);
    }

    @Test
    void appendOnlyAllocatesNothingPerRecord() {
        assertAllocationFree(null, 300_000);
    }

    private static void assertAllocationFree(KeyFields key, int records) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);

        MemoryPool pool = new MemoryPool(4L << 20, 64 << 10);
        SortBuffer buffer = new SortBuffer(pool, TYPE.size(), key);
        BinaryRow row =
                BinaryRowWriter.toRow(TYPE, 0L, "item-name-of-some-length-0000000000", 42L, null);
        Workload workload = new Workload(buffer, row);

        workload.run(200_000); // warm-up: pages created, code compiled
        long before = threads.getCurrentThreadAllocatedBytes();
        long checksum = workload.run(records);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(checksum).isNotZero();
        assertThat(workload.flushes).isGreaterThan(5);
        assertThat((double) allocated / records)
                .as("bytes allocated per record (%s in total)", allocated)
                .isLessThan(1.0);
        assertThat(pool.allocatedPages()).isLessThanOrEqualTo(pool.maxPages());
    }

    /** Appends rows with varying keys, flushing (sort, full pass, clear) whenever full. */
    private static final class Workload {
        final SortBuffer buffer;
        final BinaryRow row;
        final int idOffset;
        final int nameOffset;
        long state = 12345;
        int flushes;

        Workload(SortBuffer buffer, BinaryRow row) {
            this.buffer = buffer;
            this.row = row;
            this.idOffset = row.fieldOffset(0);
            this.nameOffset = row.varDataOffset(1);
        }

        long run(int records) {
            long checksum = 0;
            for (int i = 0; i < records; i++) {
                state = state * 6364136223846793005L + 1442695040888963407L;
                long id = (state >>> 33) % 200_000;
                LittleEndian.putLong(row.bytes(), idOffset, id);
                // Vary the string key past its 8-byte prefix: ties need the full comparison.
                LittleEndian.putLong(row.bytes(), nameOffset + 24, id);
                int bucket = (int) (id & 3);
                if (!buffer.append(0, bucket, row)) {
                    checksum += drain();
                    buffer.append(0, bucket, row);
                }
            }
            return checksum + drain();
        }

        private long drain() {
            long checksum = 0;
            SortedCursor cursor = buffer.sortedCursor();
            while (cursor.next()) {
                checksum += cursor.bucket() + cursor.length() + cursor.row().getLong(0);
            }
            buffer.clear();
            flushes++;
            return checksum;
        }
    }
}
