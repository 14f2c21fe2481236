package io.weir.data;

import java.math.BigInteger;

/**
 * The texts of FLOAT and DOUBLE values (docs/format.md §2.3 and §6.9): the shortest decimal that
 * rounds back to the value, as the {@code Double.toString} and {@code Float.toString} of JDK 19 and
 * later write them. JDK 17 (Weir's target) writes other digits for some values, so on JDKs before
 * 19 the decimal is chosen here by exact integer arithmetic, following the rule of §6.9 literally:
 * for each length, the two candidates next to the value, kept if they lie in its rounding interval
 * (a double's, or a float's for {@link #ofFloat}).
 *
 * <p>Used where a value converted to STRING is read (files written before a column became STRING)
 * and for the canonical texts of metadata (statistics, key ranges, partition values), once per
 * value written there, never per row. On JDK 17 a double whose JDK text has at most 15 digits costs
 * about two Double.toString (0.4 µs CPU measured); others a few small BigInteger operations (3 µs
 * for typical values, 7 µs for random bit patterns); on JDK 19+ nothing extra.
 */
public final class DoubleTexts {
    private static final boolean JDK_IS_SHORTEST = Runtime.version().feature() >= 19;

    /** Some decimal of 17 significant digits always rounds back to a double. */
    private static final int MAX_DIGITS = 17;

    private DoubleTexts() {}

    /** The text of {@code v} (docs/format.md §6.9). */
    public static String of(double v) {
        return JDK_IS_SHORTEST ? Double.toString(v) : shortest(v);
    }

    /**
     * The canonical text of a FLOAT {@code v} (docs/format.md §2.3): the shortest decimal that
     * rounds back to the float, as {@code Float.toString} of JDK 19+ writes it. (A FLOAT converted
     * to STRING is instead the text of the DOUBLE it widens to, §6.9: {@code of((double) v)}.)
     */
    public static String ofFloat(float v) {
        return JDK_IS_SHORTEST ? Float.toString(v) : shortestFloat(v);
    }

    /** The text of a float computed without the JDK's {@code Float.toString} digits. */
    static String shortestFloat(float v) {
        if (!Float.isFinite(v) || v == 0) {
            return Float.toString(v); // NaN, Infinity, -Infinity, 0.0, -0.0 on every JDK
        }
        StringBuilder out = new StringBuilder(16);
        if (v < 0) {
            out.append('-');
            v = -v;
        }
        return shortest(out, new Interval(v)).toString();
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
        if (v >= Double.MIN_NORMAL && fromJdkText(out, v)) {
            return out.toString();
        }
        return shortest(out, new Interval(v)).toString();
    }

    /** Appends the decimal §6.9 chooses in a positive value's rounding interval. */
    private static StringBuilder shortest(StringBuilder out, Interval r) {
        // The least length with a decimal in the interval (such decimals exist at every greater
        // length too, so the search halves).
        int low = 1;
        int high = MAX_DIGITS;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (r.nearest(mid)) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        // Where one digit suffices, §6.9 takes the closest decimal of length 1 or 2.
        r.nearest(Math.max(low, 2));
        return layout(out, r.significand, r.exponent);
    }

    /**
     * Appends the text of a positive normal {@code v} from this JDK's {@code Double.toString} if
     * that has at most 15 significant digits and reads back to {@code v}; false (appending nothing)
     * otherwise. Such a decimal is the one §6.9 chooses: a normal double's rounding interval is
     * narrower than the gaps between decimals of at most 15 digits, so it holds no other one. The
     * JDK's layout (which may end in a needless zero, {@code 0.0020}) is not kept.
     */
    private static boolean fromJdkText(StringBuilder out, double v) {
        String text = Double.toString(v);
        long significand = 0;
        int digits = 0;
        int exponent = 0;
        boolean point = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '.') {
                point = true;
            } else if (c == 'E') {
                exponent += Integer.parseInt(text, i + 1, text.length(), 10);
                break;
            } else {
                if (significand != 0 || c != '0') {
                    if (++digits > 18) {
                        return false;
                    }
                    significand = significand * 10 + (c - '0');
                }
                if (point) {
                    exponent--;
                }
            }
        }
        while (significand % 10 == 0) {
            significand /= 10;
            exponent++;
            digits--;
        }
        if (digits > 15 || Double.parseDouble(text) != v) {
            return false;
        }
        layout(out, significand, exponent);
        return true;
    }

    /**
     * The decimals that round to a positive finite double {@code v = m × 2^q} under
     * round-half-even, in exact integer arithmetic: values are held as integers in units of 2^(q -
     * 2), so that the value is {@code 4m} and the interval's ends, halfway to the neighbouring
     * doubles, are {@code 4m ± 2} (or {@code 4m - 1} below a power of two, where the double below
     * is half as far).
     */
    private static final class Interval {
        final int q;
        final long value;
        final long low;
        final long high;
        final boolean inclusive;

        /** The exponent of the value's leading decimal digit: 10^e <= v < 10^(e + 1). */
        final int e;

        /** The last decimal found by {@link #nearest}: significand × 10^exponent. */
        long significand;

        int exponent;

        /** The interval of a positive finite double. */
        Interval(double v) {
            this(Double.doubleToRawLongBits(v), 52, 1075, v);
        }

        /** The interval of a positive finite float: its neighbours are floats. */
        Interval(float v) {
            this(Float.floatToRawIntBits(v), 23, 150, v);
        }

        /**
         * @param bits the IEEE bits of a positive value
         * @param fractionBits the width of the fraction field
         * @param bias the exponent bias plus {@code fractionBits}
         */
        private Interval(long bits, int fractionBits, int bias, double v) {
            int biased = (int) (bits >>> fractionBits);
            long fraction = bits & ((1L << fractionBits) - 1);
            long m = biased == 0 ? fraction : fraction | (1L << fractionBits);
            q = (biased == 0 ? 1 : biased) - bias;
            value = 4 * m;
            low = fraction == 0 && biased > 1 ? value - 1 : value - 2;
            high = value + 2;
            // A value halfway between two doubles rounds to the one with an even significand.
            inclusive = (m & 1) == 0;
            int guess = (int) Math.floor(Math.log10(v));
            // log10 may be off by one next to a power of ten: the 17-digit grid tells.
            long c = floorOnGrid(guess - MAX_DIGITS + 1);
            e = c >= TEN_POW_17 ? guess + 1 : c < TEN_POW_17 / 10 ? guess - 1 : guess;
        }

        /** floor(v / 10^k). */
        private long floorOnGrid(int k) {
            return scaled(value, k).divide(unit(k)).longValueExact();
        }

        /**
         * {@code x} units of 2^(q - 2) in the common unit of grid {@code k}, 2^min(q - 2, k) ×
         * 5^min(0, k): x × 2^max(q - 2 - k, 0) × 5^max(-k, 0).
         */
        private BigInteger scaled(long x, int k) {
            int twos = q - 2 - k;
            int fives = -k;
            return BigInteger.valueOf(x)
                    .multiply(fives > 0 ? fivePow(fives) : BigInteger.ONE)
                    .shiftLeft(Math.max(twos, 0));
        }

        /** 10^k in the common unit of grid {@code k}: 2^max(k - q + 2, 0) × 5^max(k, 0). */
        private BigInteger unit(int k) {
            int twos = q - 2 - k;
            return (k > 0 ? fivePow(k) : BigInteger.ONE).shiftLeft(Math.max(-twos, 0));
        }

        /**
         * Whether a decimal with at most {@code n} significant digits lies in the interval; if so
         * it sets {@link #significand} and {@link #exponent} to the one closest to the value (the
         * even significand on a tie). Such decimals are multiples of 10^(e - n + 1) (any nearer one
         * below 10^e would put 10^e itself in the interval), so the candidates are the two
         * multiples next to the value.
         */
        boolean nearest(int n) {
            int k = e - n + 1;
            BigInteger unit = unit(k);
            BigInteger[] qr = scaled(value, k).divideAndRemainder(unit);
            long floor = qr[0].longValueExact();
            BigInteger below = qr[1]; // value - floor, in these units
            BigInteger lowEnd = scaled(low, k);
            BigInteger highEnd = scaled(high, k);
            BigInteger floorAt = qr[0].multiply(unit);
            boolean f = contains(floorAt, lowEnd, highEnd);
            boolean c = below.signum() != 0 && contains(floorAt.add(unit), lowEnd, highEnd);
            if (!f && !c) {
                return false;
            }
            boolean up;
            if (f && c) {
                int cmp = below.shiftLeft(1).compareTo(unit);
                up = cmp > 0 || (cmp == 0 && (floor & 1) == 1);
            } else {
                up = c;
            }
            significand = up ? floor + 1 : floor;
            exponent = k;
            return true;
        }

        private boolean contains(BigInteger d, BigInteger lowEnd, BigInteger highEnd) {
            int lo = d.compareTo(lowEnd);
            int hi = d.compareTo(highEnd);
            return inclusive ? lo >= 0 && hi <= 0 : lo > 0 && hi < 0;
        }
    }

    private static final long TEN_POW_17 = 100_000_000_000_000_000L;

    /** 5^0 .. 5^340: a grid of a double's decimals is at least 10^-340. */
    private static final BigInteger[] FIVES = new BigInteger[341];

    static {
        FIVES[0] = BigInteger.ONE;
        for (int i = 1; i < FIVES.length; i++) {
            FIVES[i] = FIVES[i - 1].multiply(BigInteger.valueOf(5));
        }
    }

    private static BigInteger fivePow(int i) {
        return FIVES[i];
    }

    /**
     * Appends the positive decimal {@code significand × 10^exponent} as §6.9 lays it out: plain for
     * 10^-3 <= d < 10^7, else computerized scientific notation; at least one digit after the point.
     */
    private static StringBuilder layout(StringBuilder out, long significand, int exponent) {
        while (significand % 10 == 0) {
            significand /= 10;
            exponent++;
        }
        String all = Long.toString(significand);
        int n = all.length();
        int i = exponent;
        int e = n + i - 1; // the exponent of the leading digit
        if (e >= -3 && e < 0) {
            out.append("0.");
            for (int z = -1; z > e; z--) {
                out.append('0');
            }
            out.append(all);
        } else if (e >= 0 && e < 7) {
            if (i >= 0) {
                out.append(all);
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
