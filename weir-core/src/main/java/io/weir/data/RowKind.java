package io.weir.data;

/**
 * The change a row carries. The byte values are Flink's {@code RowKind} byte values and are stored
 * in the first byte of every {@link BinaryRow}.
 */
public enum RowKind {
    /** +I: a new row. */
    INSERT("+I", (byte) 0),
    /** -U: the previous content of an updated row. */
    UPDATE_BEFORE("-U", (byte) 1),
    /** +U: the new content of an updated row. */
    UPDATE_AFTER("+U", (byte) 2),
    /** -D: a removed row. */
    DELETE("-D", (byte) 3);

    private static final RowKind[] BY_VALUE = {INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE};

    private final String shortString;
    private final byte value;

    RowKind(String shortString, byte value) {
        this.shortString = shortString;
        this.value = value;
    }

    public String shortString() {
        return shortString;
    }

    public byte toByteValue() {
        return value;
    }

    /** Whether the row adds content (+I, +U) rather than retracting it (-U, -D). */
    public boolean isAdd() {
        return this == INSERT || this == UPDATE_AFTER;
    }

    /** Whether the row retracts its key (-U, -D): see {@link #isRetraction(byte)}. */
    public boolean isRetraction() {
        return !isAdd();
    }

    /**
     * Whether a row of this kind byte retracts its key (-U or -D, the odd values): for a keyed
     * table, both remove the key's current row unless a later row adds it again. A filter after an
     * updating aggregate, for example, sends the -U of a key whose +U it filtered out.
     */
    public static boolean isRetraction(byte value) {
        return (value & 1) != 0;
    }

    public static RowKind fromByteValue(byte value) {
        if (value < 0 || value > 3) {
            throw new IllegalArgumentException("Invalid row kind byte: " + value);
        }
        return BY_VALUE[value];
    }

    public static RowKind fromShortString(String s) {
        for (RowKind kind : BY_VALUE) {
            if (kind.shortString.equals(s)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("Invalid row kind: '" + s + "' (valid: +I, -U, +U, -D)");
    }
}
