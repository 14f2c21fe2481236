package io.weir.base;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

class SlabAllocatorTest {
    @Test
    void buffersHaveTheSizeAskedForAndTheirArraysAreHandedOutAgain() {
        SlabAllocator slabs = new SlabAllocator();
        ByteBuffer a = slabs.allocate(1000);
        assertThat(a.capacity()).isEqualTo(1000);
        assertThat(a.remaining()).isEqualTo(1000);
        assertThat(a.arrayOffset()).isZero();
        assertThat(a.array()).hasSize(1024);

        slabs.release(a);
        assertThat(slabs.keptBytes()).isEqualTo(1024);
        // Another size of the same class gets the same array; another class does not.
        assertThat(slabs.allocate(100).array()).isNotSameAs(a.array());
        ByteBuffer b = slabs.allocate(513);
        assertThat(b.array()).isSameAs(a.array());
        assertThat(b.capacity()).isEqualTo(513);
        assertThat(slabs.keptBytes()).isZero();
    }

    @Test
    void aBufferReleasedTwiceOrNotLentHereIsNotHandedOutAgain() {
        SlabAllocator slabs = new SlabAllocator();
        ByteBuffer a = slabs.allocate(4096);
        slabs.release(a);
        slabs.release(a);
        slabs.release(ByteBuffer.allocate(4096));
        assertThat(slabs.keptBytes()).isEqualTo(4096);

        ByteBuffer first = slabs.allocate(4096);
        ByteBuffer second = slabs.allocate(4096);
        assertThat(first.array()).isSameAs(a.array());
        assertThat(second.array()).isNotSameAs(a.array());
    }

    @Test
    void atMostTheLimitWaitsForReuseAndHugeBuffersAreNotKept() {
        SlabAllocator slabs = new SlabAllocator();
        int count = (int) (SlabAllocator.MAX_KEPT_BYTES / SlabAllocator.MAX_SIZE) + 1;
        ByteBuffer[] buffers = new ByteBuffer[count];
        for (int i = 0; i < count; i++) {
            buffers[i] = slabs.allocate(SlabAllocator.MAX_SIZE);
        }
        ByteBuffer huge = slabs.allocate(SlabAllocator.MAX_SIZE + 1);
        assertThat(huge.capacity()).isEqualTo(SlabAllocator.MAX_SIZE + 1);
        for (ByteBuffer buffer : buffers) {
            slabs.release(buffer);
        }
        slabs.release(huge);
        assertThat(slabs.keptBytes()).isEqualTo(SlabAllocator.MAX_KEPT_BYTES);
    }
}
