package io.weir.util;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class Murmur3Test {

    /** Published MurmurHash3_x86_32 test vectors (SMHasher / Guava's murmur3_32_fixed). */
    @Test
    void matchesReferenceVectors() {
        assertThat(hash("", 0)).isEqualTo(0);
        assertThat(hash("", 1)).isEqualTo(0x514E28B7);
        assertThat(hash("", 0xffffffff)).isEqualTo(0x81F16F39);
        assertThat(hash("a", 0)).isEqualTo(0x3c2569b2);
        assertThat(hash("abc", 0)).isEqualTo(0xb3dd93fa);
        assertThat(hash("Hello, world!", 1234)).isEqualTo(0xfaf6cdb3);
        assertThat(hash("The quick brown fox jumps over the lazy dog", 0x9747b28c))
                .isEqualTo(0x2FA826CD);
    }

    @Test
    void primitiveHashesEqualHashesOfTheirLittleEndianBytes() {
        Random random = new Random(7);
        for (int i = 0; i < 1000; i++) {
            int seed = random.nextInt();
            long v = random.nextLong();
            byte[] b = new byte[8];
            LittleEndian.putLong(b, 0, v);
            assertThat(Murmur3.hashLong(v, seed)).isEqualTo(Murmur3.hashBytes(b, 0, 8, seed));
            assertThat(Murmur3.hashInt((int) v, seed)).isEqualTo(Murmur3.hashBytes(b, 0, 4, seed));
            assertThat(Murmur3.hashShort((short) v, seed))
                    .isEqualTo(Murmur3.hashBytes(b, 0, 2, seed));
            assertThat(Murmur3.hashByte((byte) v, seed))
                    .isEqualTo(Murmur3.hashBytes(b, 0, 1, seed));
        }
    }

    private static int hash(String s, int seed) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return Murmur3.hashBytes(b, 0, b.length, seed);
    }
}
