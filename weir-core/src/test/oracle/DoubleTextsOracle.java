import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Random;
import java.util.Set;

/**
 * Writes the expected texts of FLOAT and DOUBLE values converted to STRING (docs/format.md §6.9),
 * as a JDK 19 or later's {@code Double.toString} writes them: one line per double, its bits in 16
 * hex digits, a space, the text. Deterministic (fixed seed). Not part of the build (the build's JDK
 * 17 writes other texts); run it with a JDK 19+ when the set of values should change:
 *
 * <pre>
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java weir-core/src/test/oracle/DoubleTextsOracle.java \
 *     weir-core/src/test/resources/io/weir/data/double-texts.txt
 * </pre>
 *
 * The file is read by io.weir.data.DoubleTextsTest (weir-core) and by weir-rs's text tests.
 */
public class DoubleTextsOracle {
    public static void main(String[] args) throws IOException {
        if (Runtime.version().feature() < 19) {
            throw new IllegalStateException("Needs JDK 19 or later (shortest Double.toString)");
        }
        Set<Double> values = new LinkedHashSet<>();
        double[] special = {
            0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, Math.nextDown(Double.MIN_NORMAL),
            1.0E23, 2.0E23, 9.0E22, 1.0E22, 2.0E-3, 1.0E-3, 1.0E7, 9999999.0, 9999999.999999998,
            0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 100.0, 1234567.0, 12345678.0, 5.0E-324, 1.0E-323,
            Float.MIN_VALUE, Float.MAX_VALUE, Float.MIN_NORMAL, 0.1f, 1.0E-5, 0.125, 0.001,
            Math.PI, Math.E, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 53, (1L << 53) + 2.0
        };
        for (double d : special) {
            add(values, d);
        }
        // The first subnormals (where a one-digit decimal can be the shortest), and every 1000th.
        for (long bits = 1; bits <= 1000; bits++) {
            values.add(Double.longBitsToDouble(bits));
        }
        for (long bits = 1000; bits < (1L << 52); bits += (1L << 52) / 997) {
            values.add(Double.longBitsToDouble(bits));
        }
        // Powers of two (asymmetric rounding intervals) and powers of ten, with their neighbours;
        // the layout's edges 10^-3 and 10^7.
        for (int e = -1074; e <= 1023; e++) {
            add(values, Math.scalb(1.0, e));
        }
        for (int e = -324; e <= 308; e++) {
            add(values, Double.parseDouble("1e" + e));
            add(values, Double.parseDouble("2e" + e));
            add(values, Double.parseDouble("9.5e" + e));
        }
        // Random bit patterns: doubles, and floats as the doubles they widen to.
        Random r = new Random(20261126L);
        for (int i = 0; i < 10_000; i++) {
            values.add(Double.longBitsToDouble(r.nextLong()));
        }
        for (int i = 0; i < 5_000; i++) {
            values.add((double) Float.intBitsToFloat(r.nextInt()));
        }
        // Short decimals of every magnitude (their shortest text is themselves) and their
        // neighbours; random-magnitude values near 1.
        for (int i = 0; i < 4_000; i++) {
            int digits = 1 + r.nextInt(17);
            long m = Math.abs(r.nextLong()) % (long) Math.pow(10, digits);
            add(values, Double.parseDouble(m + "e" + (r.nextInt(640) - 330)));
        }
        for (int i = 0; i < 3_000; i++) {
            values.add(r.nextGaussian() * Math.pow(10, r.nextInt(20) - 6));
            values.add((double) (float) (r.nextGaussian() * 1000));
        }
        try (PrintWriter out =
                new PrintWriter(Files.newBufferedWriter(Path.of(args[0]), StandardCharsets.UTF_8))) {
            for (double d : values) {
                out.print(String.format("%016x", Double.doubleToRawLongBits(d)));
                out.print(' ');
                out.print(Double.toString(d));
                out.print('\n');
            }
        }
    }

    /** The value, its negation and its two neighbours (finite values only for neighbours). */
    private static void add(Set<Double> values, double d) {
        values.add(d);
        values.add(-d);
        if (Double.isFinite(d)) {
            values.add(Math.nextUp(d));
            values.add(Math.nextDown(d));
        }
    }
}
