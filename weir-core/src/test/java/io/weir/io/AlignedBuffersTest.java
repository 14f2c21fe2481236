package io.weir.io;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The native buffers of direct I/O: a fixed number, each handed from stream to stream. */
class AlignedBuffersTest {
    private static final int ALIGNMENT = 4096;

    @Test
    void atMostMaxBuffersExistAndAGivenOneIsTakenAgainCleared() {
        List<ByteBuffer> taken = new ArrayList<>();
        try {
            ByteBuffer b;
            while ((b = AlignedBuffers.takeOrNull(ALIGNMENT)) != null) {
                taken.add(b);
                assertThat(taken.size()).isLessThanOrEqualTo(AlignedBuffers.MAX_BUFFERS);
            }
            // No other test holds one: every buffer that can exist was handed out here.
            assertThat(taken).hasSize(AlignedBuffers.MAX_BUFFERS);
            assertThat(AlignedBuffers.allocated()).isEqualTo(AlignedBuffers.MAX_BUFFERS);
            Map<ByteBuffer, Boolean> distinct = new IdentityHashMap<>();
            for (ByteBuffer buffer : taken) {
                assertThat(buffer.isDirect()).isTrue();
                assertThat(buffer.capacity()).isEqualTo(AlignedBuffers.SIZE);
                assertThat(buffer.alignmentOffset(0, ALIGNMENT)).isZero();
                distinct.put(buffer, true);
            }
            assertThat(distinct).hasSize(AlignedBuffers.MAX_BUFFERS);

            ByteBuffer used = taken.remove(taken.size() - 1);
            used.put(new byte[1000]).limit(2000);
            AlignedBuffers.give(used);
            ByteBuffer again = AlignedBuffers.takeOrNull(ALIGNMENT);
            taken.add(again);
            assertThat(again).isSameAs(used);
            assertThat(again.position()).isZero();
            assertThat(again.limit()).isEqualTo(AlignedBuffers.SIZE);
            assertThat(AlignedBuffers.takeOrNull(ALIGNMENT)).isNull();
        } finally {
            taken.forEach(AlignedBuffers::give);
        }
        assertThat(AlignedBuffers.allocated()).isEqualTo(AlignedBuffers.MAX_BUFFERS);
    }
}
