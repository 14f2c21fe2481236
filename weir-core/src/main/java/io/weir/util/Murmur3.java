package io.weir.util;

/**
 * MurmurHash3 x86_32 (Austin Appleby's reference algorithm), over bytes or over the little-endian
 * bytes of an int or long, without allocation. Used for Weir's key hash (docs/format.md).
 */
public final class Murmur3 {
    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private Murmur3() {}

    public static int hashBytes(byte[] b, int off, int len, int seed) {
        int h = seed;
        int end = off + (len & ~3);
        for (int i = off; i < end; i += 4) {
            h = mixH(h, mixK(LittleEndian.getInt(b, i)));
        }
        int k = 0;
        switch (len & 3) {
            case 3:
                k ^= (b[end + 2] & 0xff) << 16;
                // fall through
            case 2:
                k ^= (b[end + 1] & 0xff) << 8;
                // fall through
            case 1:
                k ^= b[end] & 0xff;
                h ^= mixK(k);
                break;
            default:
                break;
        }
        return fmix(h ^ len);
    }

    /** The hash of the 4 little-endian bytes of {@code v}. */
    public static int hashInt(int v, int seed) {
        return fmix(mixH(seed, mixK(v)) ^ 4);
    }

    /** The hash of the 8 little-endian bytes of {@code v}. */
    public static int hashLong(long v, int seed) {
        int h = mixH(seed, mixK((int) v));
        h = mixH(h, mixK((int) (v >>> 32)));
        return fmix(h ^ 8);
    }

    /** The hash of one byte. */
    public static int hashByte(byte v, int seed) {
        return fmix(seed ^ mixK(v & 0xff) ^ 1);
    }

    /** The hash of the 2 little-endian bytes of {@code v}. */
    public static int hashShort(short v, int seed) {
        return fmix(seed ^ mixK(v & 0xffff) ^ 2);
    }

    private static int mixK(int k) {
        k *= C1;
        k = Integer.rotateLeft(k, 15);
        return k * C2;
    }

    private static int mixH(int h, int k) {
        h ^= k;
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe6546b64;
    }

    private static int fmix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
