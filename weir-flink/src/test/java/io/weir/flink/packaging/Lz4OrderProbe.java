package io.weir.flink.packaging;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Runs in a JVM whose classpath puts Flink's {@code org.lz4:lz4-java} 1.8.0 and Flink's jars ahead
 * of the connector jar (as a Maven build of an application may): prints which lz4-java Weir's codec
 * uses and exits with 1 unless it is the fork's native, accelerated compressor.
 */
public final class Lz4OrderProbe {
    private Lz4OrderProbe() {}

    public static void main(String[] args) throws Exception {
        Class<?> factory = Class.forName("net.jpountz.lz4.LZ4Factory");
        System.out.println(
                "net.jpountz.lz4.LZ4Factory on the classpath: "
                        + factory.getProtectionDomain().getCodeSource().getLocation());
        Class<?> library = Class.forName("io.weir.log.Lz4Library");
        Field current = library.getDeclaredField("CURRENT");
        current.setAccessible(true);
        Object lz4 = current.get(null);
        Method fast = library.getDeclaredMethod("fast");
        Method description = library.getDeclaredMethod("description");
        fast.setAccessible(true);
        description.setAccessible(true);
        System.out.println("Weir's LZ4: " + description.invoke(lz4));
        if (!(Boolean) fast.invoke(lz4)) {
            System.out.println("FAIL: Weir's LZ4 is not on its fast path");
            System.exit(1);
        }
        System.out.println("OK lz4: fast path with Flink's lz4-java first");
    }
}
