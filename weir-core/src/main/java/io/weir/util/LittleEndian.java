package io.weir.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian primitive access to byte arrays (intrinsified by the JIT; no allocation). */
public final class LittleEndian {
    private static final VarHandle SHORT =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {}

    public static short getShort(byte[] b, int off) {
        return (short) SHORT.get(b, off);
    }

    public static int getInt(byte[] b, int off) {
        return (int) INT.get(b, off);
    }

    public static long getLong(byte[] b, int off) {
        return (long) LONG.get(b, off);
    }

    public static void putShort(byte[] b, int off, short v) {
        SHORT.set(b, off, v);
    }

    public static void putInt(byte[] b, int off, int v) {
        INT.set(b, off, v);
    }

    public static void putLong(byte[] b, int off, long v) {
        LONG.set(b, off, v);
    }
}
