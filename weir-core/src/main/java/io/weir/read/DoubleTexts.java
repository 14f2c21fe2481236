package io.weir.read;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * The text of a DOUBLE converted to STRING by schema evolution (docs/format.md §6.9): the shortest
 * decimal that rounds back to the value, as the {@code Double.toString} of JDK 19 and later writes
 * it. JDK 17 (Weir's target) writes other digits for some values, so on JDKs before 19 the decimal
 * is chosen here by exact arithmetic, following the rule of §6.9 literally: for each length, the
 * candidates next to the value, kept if they lie in its rounding interval.
 *
 * <p>This is the read path of files written before a column became STRING, not the write path; it
 * costs a few BigDecimal operations per value on JDK 17 and nothing extra on JDK 19+.
 */
public final class DoubleTexts {
    private static final boolean JDK_IS_SHORTEST = Runtime.version().feature() >= 19;
    private static final BigDecimal HALF = new BigDecimal("0.5");

    /** A double's significand has at most 17 significant decimal digits that matter. */
    private static final int MAX_DIGITS = 17;

    private DoubleTexts() {}

    /** The text of {@code v} (docs/format.md §6.9). */
    public static String of(double v) {
        return JDK_IS_SHORTEST ? Double.toString(v) : shortest(v);
    }

    /** The text of {@code v} computed without the JDK's {@code Double.toString} digits. */
    static String shortest(double v) {
        if (!Double.isFinite(v) || v == 0) {
            return Double.toString(v); // NaN, Infinity, -Infinity, 0.0, -0.0 on every JDK
        }
        StringBuilder out = new StringBuilder(24);
        if (v < 0) {
            out.append('-');
            v = -v;
        }
        Interval r = new Interval(v);
        // The least length with a decimal in the interval (such decimals exist at every greater
        // length too, so the search halves).
        int low = 1;
        int high = MAX_DIGITS;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (r.nearest(mid) != null) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        // A single digit is not enough to be the closest: the closest of length 1 or 2 is taken.
        BigDecimal d = r.nearest(Math.max(low, 2));
        return layout(out, d).toString();
    }

    /** The decimals that round to a positive finite double under round-half-even. */
    private static final class Interval {
        final BigDecimal exact;
        final BigDecimal low;
        final BigDecimal high;
        final boolean inclusive;

        /** The exponent of the value's leading digit: 10^e <= v < 10^(e + 1). */
        final int e;

        Interval(double v) {
            exact = new BigDecimal(v);
            // Halfway to each neighbour; below a power of two the gap is half the one above.
            low = exact.add(new BigDecimal(Math.nextDown(v))).multiply(HALF);
            high = exact.add(new BigDecimal(Math.ulp(v)).multiply(HALF));
            // A value halfway between two doubles rounds to the one with an even significand.
            inclusive = (Double.doubleToRawLongBits(v) & 1) == 0;
            e = exact.precision() - exact.scale() - 1;
        }

        boolean contains(BigDecimal d) {
            int lo = d.compareTo(low);
            int hi = d.compareTo(high);
            return inclusive ? lo >= 0 && hi <= 0 : lo > 0 && hi < 0;
        }

        /**
         * Of the decimals with at most {@code n} significant digits in the interval, the one
         * closest to the value (the even significand on a tie), or null if there is none. Such
         * decimals are multiples of 10^(e - n + 1) (any nearer one below 10^e would put 10^e itself
         * in the interval), so the candidates are the two multiples next to the value.
         */
        BigDecimal nearest(int n) {
            int scale = n - 1 - e;
            BigDecimal floor = exact.setScale(scale, RoundingMode.FLOOR);
            BigDecimal ceiling = exact.setScale(scale, RoundingMode.CEILING);
            boolean f = contains(floor);
            boolean c = !ceiling.equals(floor) && contains(ceiling);
            if (!f || !c) {
                return f ? floor : c ? ceiling : null;
            }
            int cmp = exact.subtract(floor).compareTo(ceiling.subtract(exact));
            if (cmp == 0) {
                return floor.unscaledValue().testBit(0) ? ceiling : floor;
            }
            return cmp < 0 ? floor : ceiling;
        }
    }

    /**
     * Appends the positive decimal {@code d} as §6.9 lays it out: plain for 10^-3 <= d < 10^7, else
     * computerized scientific notation; at least one digit after the point.
     */
    private static StringBuilder layout(StringBuilder out, BigDecimal d) {
        BigInteger unscaled = d.unscaledValue();
        String all = unscaled.toString();
        int n = all.length();
        while (all.charAt(n - 1) == '0') {
            n--;
        }
        // The decimal is digits[0, n) x 10^i; e is the exponent of its leading digit.
        int i = all.length() - n - d.scale();
        int e = n + i - 1;
        if (e >= -3 && e < 0) {
            out.append("0.");
            for (int z = -1; z > e; z--) {
                out.append('0');
            }
            out.append(all, 0, n);
        } else if (e >= 0 && e < 7) {
            if (i >= 0) {
                out.append(all, 0, n);
                for (int z = 0; z < i; z++) {
                    out.append('0');
                }
                out.append(".0");
            } else {
                out.append(all, 0, n + i).append('.').append(all, n + i, n);
            }
        } else {
            out.append(all.charAt(0)).append('.');
            if (n == 1) {
                out.append('0');
            } else {
                out.append(all, 1, n);
            }
            out.append('E').append(e);
        }
        return out;
    }
}
