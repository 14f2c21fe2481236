package io.weir.data;

import io.weir.types.DataType;
import io.weir.types.RowType;
import io.weir.util.LittleEndian;
import io.weir.util.Murmur3;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * Some fields of a row type (a primary key, the partition keys), compiled once for hashing,
 * ordering and equality of those fields directly on {@link BinaryRow} bytes: no allocation, no
 * lookup per record.
 *
 * <p>The hash is Weir's key hash (docs/format.md): starting from seed 42, for each field in order
 * {@code h = murmur3_x86_32(canonical bytes of the field, seed = h)}, where a null field hashes the
 * single byte 0 and the canonical bytes are: 1 byte for BOOLEAN and TINYINT, 2/4/8 little-endian
 * bytes for SMALLINT, INT/DATE/TIME, BIGINT; the bits of FLOAT/DOUBLE with -0.0 and NaN normalized;
 * the unscaled long (8 bytes) of DECIMAL(p &lt;= 18), else the minimal big-endian two's complement
 * bytes of the unscaled value; the UTF-8 or binary bytes of strings; the epoch millis (8 bytes) of
 * TIMESTAMP, followed by the nano of millisecond (4 bytes) when p &gt; 3.
 */
public final class KeyFields {
    public static final int HASH_SEED = 42;

    private static final int BOOL = 0;
    private static final int BYTE = 1;
    private static final int SHORT = 2;
    private static final int INT = 3;
    private static final int LONG = 4;
    private static final int FLOAT = 5;
    private static final int DOUBLE = 6;
    private static final int BIG_DECIMAL = 7;
    private static final int BYTES = 8;
    private static final int BIG_TIMESTAMP = 9;

    private final int[] positions;
    private final int[] kinds;

    /**
     * The null bits of these fields in a row's first 8-byte word (bit {@code pos + 8}), or 0 when a
     * field's null bit is in a later word (position 56 or more): then nulls are checked field by
     * field.
     */
    private final long firstWordNullMask;

    private KeyFields(int[] positions, int[] kinds) {
        this.positions = positions;
        this.kinds = kinds;
        long mask = 0L;
        for (int pos : positions) {
            if (pos + 8 >= 64) {
                mask = 0L;
                break;
            }
            mask |= 1L << (pos + 8);
        }
        this.firstWordNullMask = mask;
    }

    /** The given field positions of {@code rowType}, in the given order. */
    public static KeyFields of(RowType rowType, int[] positions) {
        int[] kinds = new int[positions.length];
        for (int i = 0; i < positions.length; i++) {
            DataType t = rowType.type(positions[i]);
            kinds[i] =
                    switch (t.root()) {
                        case BOOLEAN -> BOOL;
                        case TINYINT -> BYTE;
                        case SMALLINT -> SHORT;
                        case INT, DATE, TIME -> INT;
                        case BIGINT -> LONG;
                        case FLOAT -> FLOAT;
                        case DOUBLE -> DOUBLE;
                        case DECIMAL -> t.isFixedLength() ? LONG : BIG_DECIMAL;
                        case CHAR, VARCHAR, BINARY, VARBINARY -> BYTES;
                        case TIMESTAMP, TIMESTAMP_LTZ -> t.isFixedLength() ? LONG : BIG_TIMESTAMP;
                    };
        }
        return new KeyFields(positions.clone(), kinds);
    }

    public int size() {
        return positions.length;
    }

    public int[] positions() {
        return positions.clone();
    }

    /** Weir's key hash of these fields of {@code row}. */
    public int hash(BinaryRow row) {
        int h = HASH_SEED;
        for (int i = 0; i < positions.length; i++) {
            h = row.isNullAt(positions[i]) ? Murmur3.hashByte((byte) 0, h) : hashField(row, i, h);
        }
        return h;
    }

    /** {@link #hash} of a row none of whose fields here is null (no null checks). */
    private int hashNonNull(BinaryRow row) {
        int h = HASH_SEED;
        for (int i = 0; i < positions.length; i++) {
            h = hashField(row, i, h);
        }
        return h;
    }

    /** Field i's canonical bytes hashed onto {@code h}; the field is not null. */
    private int hashField(BinaryRow row, int i, int h) {
        int pos = positions[i];
        return switch (kinds[i]) {
            case BOOL -> Murmur3.hashByte((byte) (row.getBoolean(pos) ? 1 : 0), h);
            case BYTE -> Murmur3.hashByte(row.getByte(pos), h);
            case SHORT -> Murmur3.hashShort(row.getShort(pos), h);
            case INT -> Murmur3.hashInt(row.getInt(pos), h);
            case LONG -> Murmur3.hashLong(row.getLong(pos), h);
            case FLOAT -> Murmur3.hashInt(floatBits(row.getFloat(pos)), h);
            case DOUBLE -> Murmur3.hashLong(doubleBits(row.getDouble(pos)), h);
            case BIG_DECIMAL, BYTES ->
                    Murmur3.hashBytes(row.bytes(), varOffset(row, i), varLength(row, i), h);
            case BIG_TIMESTAMP ->
                    Murmur3.hashInt(
                            (int) row.getLong(pos), Murmur3.hashLong(timestampMillis(row, pos), h));
            default -> throw new IllegalStateException();
        };
    }

    /** The bucket of a row: its key hash, made non-negative, modulo {@code buckets}. */
    public int bucket(BinaryRow row, int buckets) {
        return toBucket(hash(row), buckets);
    }

    /**
     * The writer's per-row call for a key that must not be null: one null check and one hash.
     * Returns the row's {@link #bucket}, or {@code -1 - i} when field i is the first null field.
     */
    public int bucketOfNonNullKey(BinaryRow row, int buckets) {
        if (anyNull(row)) {
            return -1 - firstNull(row);
        }
        return toBucket(hashNonNull(row), buckets);
    }

    /** {@code (hash & MAX_VALUE) % buckets}, as a mask when {@code buckets} is a power of two. */
    private static int toBucket(int hash, int buckets) {
        int h = hash & Integer.MAX_VALUE;
        return (buckets & (buckets - 1)) == 0 ? h & (buckets - 1) : h % buckets;
    }

    /** Whether any of these fields is null in {@code row}: usually one load and one mask. */
    public boolean anyNull(BinaryRow row) {
        if (firstWordNullMask != 0L) {
            return (LittleEndian.getLong(row.bytes(), row.offset()) & firstWordNullMask) != 0L;
        }
        return firstNull(row) >= 0;
    }

    /** Orders rows by these fields (nulls first; strings by unsigned bytes, i.e. code points). */
    public int compare(BinaryRow a, BinaryRow b) {
        for (int i = 0; i < positions.length; i++) {
            int c = compareField(a, b, i);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    public boolean equalKeys(BinaryRow a, BinaryRow b) {
        return compare(a, b) == 0;
    }

    /** Whether any of these fields is null in {@code row}; returns its index or -1. */
    public int firstNull(BinaryRow row) {
        for (int i = 0; i < positions.length; i++) {
            if (row.isNullAt(positions[i])) {
                return i;
            }
        }
        return -1;
    }

    /**
     * An 8-byte prefix of the first field such that, when two prefixes differ, their unsigned order
     * is the order of {@link #compare}. Integral values are sign-flipped, strings and binaries give
     * their first 8 bytes big-endian (zero padded). Null gives 0: only meaningful for fields that
     * are never null (primary keys).
     */
    public long normalizedPrefix(BinaryRow row) {
        int pos = positions[0];
        if (row.isNullAt(pos)) {
            return 0L;
        }
        return switch (kinds[0]) {
            case BOOL -> row.getBoolean(pos) ? 1L : 0L;
            case BYTE -> row.getByte(pos) ^ Long.MIN_VALUE;
            case SHORT -> row.getShort(pos) ^ Long.MIN_VALUE;
            case INT -> row.getInt(pos) ^ Long.MIN_VALUE;
            case LONG -> row.getLong(pos) ^ Long.MIN_VALUE;
            case BYTES -> bytesPrefix(row, 0);
            default -> 0L;
        };
    }

    /**
     * Whether equal prefixes imply equal keys: a single non-null integral field (BOOLEAN, TINYINT,
     * SMALLINT, INT, BIGINT, DATE, TIME, compact DECIMAL or TIMESTAMP).
     */
    public boolean prefixDetermines() {
        return positions.length == 1 && kinds[0] <= LONG;
    }

    private int compareField(BinaryRow a, BinaryRow b, int i) {
        int pos = positions[i];
        boolean an = a.isNullAt(pos);
        boolean bn = b.isNullAt(pos);
        if (an || bn) {
            return an == bn ? 0 : (an ? -1 : 1);
        }
        return switch (kinds[i]) {
            case BOOL -> Boolean.compare(a.getBoolean(pos), b.getBoolean(pos));
            case BYTE -> Byte.compare(a.getByte(pos), b.getByte(pos));
            case SHORT -> Short.compare(a.getShort(pos), b.getShort(pos));
            case INT -> Integer.compare(a.getInt(pos), b.getInt(pos));
            case LONG -> Long.compare(a.getLong(pos), b.getLong(pos));
            case FLOAT -> Float.compare(normalize(a.getFloat(pos)), normalize(b.getFloat(pos)));
            case DOUBLE -> Double.compare(normalize(a.getDouble(pos)), normalize(b.getDouble(pos)));
            case BYTES ->
                    Arrays.compareUnsigned(
                            a.bytes(),
                            varOffset(a, i),
                            varOffset(a, i) + varLength(a, i),
                            b.bytes(),
                            varOffset(b, i),
                            varOffset(b, i) + varLength(b, i));
            case BIG_DECIMAL ->
                    new BigInteger(a.bytes(), varOffset(a, i), varLength(a, i))
                            .compareTo(new BigInteger(b.bytes(), varOffset(b, i), varLength(b, i)));
            case BIG_TIMESTAMP -> {
                int c = Long.compare(timestampMillis(a, pos), timestampMillis(b, pos));
                yield c != 0 ? c : Integer.compare((int) a.getLong(pos), (int) b.getLong(pos));
            }
            default -> throw new IllegalStateException();
        };
    }

    private int varOffset(BinaryRow row, int i) {
        int pos = positions[i];
        if (kinds[i] == BIG_DECIMAL) {
            return row.offset() + (int) (row.getLong(pos) >>> 32);
        }
        return row.varDataOffset(pos);
    }

    private int varLength(BinaryRow row, int i) {
        int pos = positions[i];
        if (kinds[i] == BIG_DECIMAL) {
            return (int) row.getLong(pos);
        }
        return row.varDataLength(pos);
    }

    private static long timestampMillis(BinaryRow row, int pos) {
        return LittleEndian.getLong(row.bytes(), row.offset() + (int) (row.getLong(pos) >>> 32));
    }

    private long bytesPrefix(BinaryRow row, int i) {
        return bytesWord(row.bytes(), varOffset(row, i), varLength(row, i), 0);
    }

    /**
     * Whether the key has order words past its prefix ({@link #normalizedWord}): its first field is
     * a string or binary, whose first 8 bytes may tie.
     */
    public boolean hasLongerWords() {
        return kinds[0] == BYTES;
    }

    /**
     * Word {@code depth} of the first field, for a key with {@link #hasLongerWords()}: its bytes
     * {@code 8 * depth} to {@code 8 * depth + 7}, big-endian, zero-padded; word 0 is {@link
     * #normalizedPrefix}. When the words of two keys differ at some depth, equal before it, their
     * unsigned order is the order of {@link #compare}. Equal words at every depth up to the longer
     * first field's end leave the order to {@link #compare}.
     */
    public long normalizedWord(BinaryRow row, int depth) {
        int pos = positions[0];
        if (row.isNullAt(pos)) {
            return 0L;
        }
        return bytesWord(row.bytes(), varOffset(row, 0), varLength(row, 0), depth);
    }

    /**
     * Whether the first field (string or binary) of {@code row} has bytes past word {@code depth}:
     * whether words after it can differ from zero.
     */
    public boolean hasWordsAfter(BinaryRow row, int depth) {
        return !row.isNullAt(positions[0]) && varLength(row, 0) > 8 * (depth + 1);
    }

    private static long bytesWord(byte[] b, int off, int len, int depth) {
        int start = 8 * depth;
        if (len - start >= 8) {
            return Long.reverseBytes(LittleEndian.getLong(b, off + start));
        }
        long word = 0L;
        for (int k = 0; k < len - start; k++) {
            word |= (b[off + start + k] & 0xffL) << (56 - 8 * k);
        }
        return word;
    }

    private static int floatBits(float v) {
        return Float.floatToIntBits(normalize(v));
    }

    private static long doubleBits(double v) {
        return Double.doubleToLongBits(normalize(v));
    }

    private static float normalize(float v) {
        return v == 0.0f ? 0.0f : v;
    }

    private static double normalize(double v) {
        return v == 0.0d ? 0.0d : v;
    }
}
