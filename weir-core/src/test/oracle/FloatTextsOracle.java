import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Random;
import java.util.Set;

/**
 * Writes the canonical texts of FLOAT values in metadata (docs/format.md §2.3), as a JDK 19 or
 * later's {@code Float.toString} writes them: one line per float, its bits in 8 hex digits, a space,
 * the text. Deterministic (fixed seed). Not part of the build (the build's JDK 17 writes other
 * texts for some values); run it with a JDK 19+ when the set of values should change:
 *
 * <pre>
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java weir-core/src/test/oracle/FloatTextsOracle.java \
 *     weir-core/src/test/resources/io/weir/data/float-texts.txt
 * </pre>
 *
 * The file is read by io.weir.data.DoubleTextsTest (weir-core).
 */
public class FloatTextsOracle {
    public static void main(String[] args) throws IOException {
        if (Runtime.version().feature() < 19) {
            throw new IllegalStateException("Needs JDK 19 or later (shortest Float.toString)");
        }
        Set<Float> values = new LinkedHashSet<>();
        float[] special = {
            0.0f, -0.0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, Math.nextDown(Float.MIN_NORMAL),
            1.1f, 0.1f, 2.0E-3f, 1.0E-3f, 1.0E7f, 9999999.0f, 1.0E10f, 1.0E23f, 8.41E21f,
            2.82879384806159E17f, 1.00000005E10f, 3.4028235E38f, (float) Math.PI, 16777216.0f
        };
        for (float f : special) {
            add(values, f);
        }
        // The first subnormals (where a one-digit decimal can be the shortest), and a spread.
        for (int bits = 1; bits <= 2000; bits++) {
            values.add(Float.intBitsToFloat(bits));
        }
        for (int bits = 2000; bits < (1 << 23); bits += (1 << 23) / 997) {
            values.add(Float.intBitsToFloat(bits));
        }
        // Powers of two (asymmetric rounding intervals) and of ten, with their neighbours.
        for (int e = -149; e <= 127; e++) {
            add(values, Math.scalb(1.0f, e));
        }
        for (int e = -45; e <= 38; e++) {
            add(values, Float.parseFloat("1e" + e));
            add(values, Float.parseFloat("2e" + e));
            add(values, Float.parseFloat("9.5e" + e));
        }
        Random r = new Random(20261126L);
        for (int i = 0; i < 30_000; i++) {
            values.add(Float.intBitsToFloat(r.nextInt()));
        }
        try (PrintWriter out =
                new PrintWriter(Files.newBufferedWriter(Path.of(args[0]), StandardCharsets.UTF_8))) {
            for (float f : values) {
                out.printf("%08x %s%n", Float.floatToRawIntBits(f), Float.toString(f));
            }
        }
    }

    private static void add(Set<Float> values, float f) {
        values.add(f);
        values.add(-f);
        values.add(Math.nextUp(f));
        values.add(Math.nextDown(f));
    }
}
