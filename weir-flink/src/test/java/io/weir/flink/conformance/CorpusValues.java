package io.weir.flink.conformance;

import io.weir.data.Timestamp;
import io.weir.types.DataType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Random;

/**
 * Values for the reader conformance corpus: random ones and, with some probability, the extremes of
 * each type (nulls, empty and long strings, the largest decimals, the ends of each timestamp range,
 * NaN and signed zeros).
 */
final class CorpusValues {
    private CorpusValues() {}

    /** The first and last TIMESTAMP(7..9) a base file can hold (docs/format.md §5.1). */
    private static final Timestamp NANOS_MIN =
            Timestamp.of(LocalDateTime.of(1677, 9, 21, 0, 12, 43, 145_224_192));

    private static final Timestamp NANOS_MAX =
            Timestamp.of(LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_807));

    /** A value of {@code type} for the writer ({@code BinaryRowWriter.toRow}); null if nullable. */
    static Object random(DataType type, Random r) {
        if (type.nullable() && r.nextInt(8) == 0) {
            return null;
        }
        boolean extreme = r.nextInt(6) == 0;
        return switch (type.root()) {
            case BOOLEAN -> r.nextBoolean();
            case TINYINT ->
                    extreme
                            ? (r.nextBoolean() ? Byte.MIN_VALUE : Byte.MAX_VALUE)
                            : (byte) r.nextInt();
            case SMALLINT ->
                    extreme
                            ? (r.nextBoolean() ? Short.MIN_VALUE : Short.MAX_VALUE)
                            : (short) r.nextInt();
            case INT ->
                    extreme
                            ? (r.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE)
                            : r.nextInt();
            case BIGINT ->
                    extreme ? (r.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : r.nextLong();
            case FLOAT ->
                    extreme
                            ? new float[] {
                                        Float.NaN,
                                        -0.0f,
                                        0.0f,
                                        Float.NEGATIVE_INFINITY,
                                        Float.MAX_VALUE,
                                        Float.MIN_VALUE
                                    }
                                    [r.nextInt(6)]
                            : (float) (r.nextGaussian() * 1000);
            case DOUBLE ->
                    extreme
                            ? new double[] {
                                        Double.NaN,
                                        -0.0,
                                        0.0,
                                        Double.POSITIVE_INFINITY,
                                        -Double.MAX_VALUE,
                                        Double.MIN_VALUE
                                    }
                                    [r.nextInt(6)]
                            : r.nextGaussian() * 1e6;
            case DECIMAL -> decimal(type, r, extreme);
            case CHAR, VARCHAR -> string(r, extreme);
            case BINARY, VARBINARY -> string(r, extreme).getBytes(StandardCharsets.UTF_8);
            case DATE ->
                    extreme
                            ? (r.nextBoolean() ? -719162 : 2932896) // 0001-01-01, 9999-12-31
                            : r.nextInt(40000) - 10000;
            case TIME -> extreme ? (r.nextBoolean() ? 0 : 86_399_999) : r.nextInt(86_400_000);
            case TIMESTAMP, TIMESTAMP_LTZ -> timestamp(type.precision(), r, extreme);
        };
    }

    private static BigDecimal decimal(DataType type, Random r, boolean extreme) {
        BigInteger max = BigInteger.TEN.pow(type.precision()).subtract(BigInteger.ONE);
        BigInteger unscaled;
        if (extreme) {
            unscaled = r.nextBoolean() ? max : max.negate();
        } else {
            unscaled = new BigInteger(Math.min(120, type.precision() * 3), r).mod(max);
            if (r.nextBoolean()) {
                unscaled = unscaled.negate();
            }
        }
        return new BigDecimal(unscaled, type.scale());
    }

    private static String string(Random r, boolean extreme) {
        if (extreme) {
            return switch (r.nextInt(4)) {
                case 0 -> "";
                case 1 -> "1234567"; // the longest inlined string
                case 2 -> "é€𝄞 unicode, then more than seven bytes";
                default -> "long-".repeat(200 + r.nextInt(100));
            };
        }
        return "s" + r.nextInt(100_000);
    }

    /** A timestamp within the precision (no digits below its unit, as Flink SQL gives them). */
    private static Timestamp timestamp(int precision, Random r, boolean extreme) {
        Timestamp t;
        if (extreme) {
            if (precision > 6) {
                t = r.nextBoolean() ? NANOS_MIN : NANOS_MAX;
            } else {
                t =
                        Timestamp.of(
                                r.nextBoolean()
                                        ? LocalDateTime.of(1, 1, 1, 0, 0)
                                        : LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999));
            }
        } else {
            long seconds =
                    LocalDateTime.of(1900, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC)
                            + (long) (r.nextDouble() * 200 * 365 * 86400L);
            t =
                    Timestamp.of(
                            LocalDateTime.ofEpochSecond(
                                    seconds, r.nextInt(1_000_000_000), ZoneOffset.UTC));
        }
        long unit = (long) Math.pow(10, 9 - precision);
        long nanoOfSecond = Math.floorMod(t.millis(), 1000L) * 1_000_000 + t.nanoOfMillisecond();
        long truncated = nanoOfSecond / unit * unit;
        long millis = Math.floorDiv(t.millis(), 1000L) * 1000 + truncated / 1_000_000;
        return new Timestamp(millis, (int) (truncated % 1_000_000));
    }
}
