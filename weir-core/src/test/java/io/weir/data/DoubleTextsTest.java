package io.weir.data;

import io.weir.types.DataType;
import io.weir.types.DataTypes;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The texts of DOUBLE values converted to STRING (docs/format.md §6.9) against those of a JDK 25's
 * {@code Double.toString} (double-texts.txt, written by src/test/oracle/DoubleTextsOracle.java): 54
 * 000 values, among them subnormals, powers of two and ten and their neighbours, the layout's
 * edges, random bit patterns and floats widened to double. On the build's JDK 17 this checks the
 * exact-arithmetic selection, whose JDK's own {@code Double.toString} differs for some of them.
 */
class DoubleTextsTest {
    private record Expected(double value, String text) {}

    private static List<Expected> oracle() throws IOException {
        List<Expected> all = new ArrayList<>();
        try (BufferedReader in =
                new BufferedReader(
                        new InputStreamReader(
                                Objects.requireNonNull(
                                        DoubleTextsTest.class.getResourceAsStream(
                                                "double-texts.txt")),
                                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                long bits = Long.parseUnsignedLong(line.substring(0, 16), 16);
                all.add(new Expected(Double.longBitsToDouble(bits), line.substring(17)));
            }
        }
        return all;
    }

    @Test
    void shortestDecimalsAsJdk19AndLaterWriteThem() throws IOException {
        List<Expected> oracle = oracle();
        assertThat(oracle).hasSizeGreaterThan(50_000);
        List<String> wrong = new ArrayList<>();
        int differsOnThisJdk = 0;
        for (int i = 0; i < oracle.size(); i++) {
            Expected e = oracle.get(i);
            String text = DoubleTexts.shortest(e.value());
            if (!text.equals(e.text())) {
                wrong.add(Long.toHexString(Double.doubleToRawLongBits(e.value())) + ": " + text);
            }
            if (i % 50 == 0) { // of() is shortest() here or the JDK's own (19+)
                assertThat(DoubleTexts.of(e.value())).isEqualTo(e.text());
            }
            if (!Double.toString(e.value()).equals(e.text())) {
                differsOnThisJdk++;
            }
        }
        assertThat(wrong).isEmpty();
        if (Runtime.version().feature() < 19) {
            // The file holds values where JDK 17's digits are not the shortest, so that the
            // test checks what Double.toString of this JDK would get wrong.
            assertThat(differsOnThisJdk).isGreaterThan(500);
        }
    }

    /**
     * FLOAT texts of metadata (§2.3) against a JDK 25's {@code Float.toString} (float-texts.txt,
     * written by src/test/oracle/FloatTextsOracle.java): 35 000 floats, subnormals, powers of two
     * and ten with their neighbours, random bit patterns. JDK 17 writes other digits for about 3
     * 400 of them.
     */
    @Test
    void shortestFloatDecimalsAsJdk19AndLaterWriteThem() throws IOException {
        List<String> wrong = new ArrayList<>();
        int count = 0;
        int differsOnThisJdk = 0;
        try (BufferedReader in =
                new BufferedReader(
                        new InputStreamReader(
                                Objects.requireNonNull(
                                        DoubleTextsTest.class.getResourceAsStream(
                                                "float-texts.txt")),
                                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                float v = Float.intBitsToFloat(Integer.parseUnsignedInt(line.substring(0, 8), 16));
                String expected = line.substring(9);
                if (!DoubleTexts.shortestFloat(v).equals(expected)) {
                    wrong.add(line + " got " + DoubleTexts.shortestFloat(v));
                }
                if (count++ % 50 == 0) {
                    assertThat(DoubleTexts.ofFloat(v)).isEqualTo(expected);
                }
                if (!Float.toString(v).equals(expected)) {
                    differsOnThisJdk++;
                }
            }
        }
        assertThat(count).isGreaterThan(30_000);
        assertThat(wrong).isEmpty();
        if (Runtime.version().feature() < 19) {
            assertThat(differsOnThisJdk).isGreaterThan(1_000);
        }
    }

    /**
     * The canonical texts of FLOAT and DOUBLE values in metadata (§2.3), as {@link ValueStrings}
     * writes them on any JDK, for values where JDK 17's own texts differ or that are special.
     */
    @Test
    void canonicalMetadataTextsOfTrickyValues() {
        DataType d = DataTypes.DOUBLE();
        DataType f = DataTypes.FLOAT();
        assertThat(ValueStrings.toText(1.0E23, d))
                .isEqualTo("1.0E23"); // JDK 17: 9.999999999999999E22
        assertThat(ValueStrings.toText(2.0E-3, d)).isEqualTo("0.002");
        assertThat(ValueStrings.toText(4.9E-324, d)).isEqualTo("4.9E-324");
        assertThat(ValueStrings.toText(-0.0, d)).isEqualTo("-0.0");
        assertThat(ValueStrings.toText(Double.NaN, d)).isEqualTo("NaN");
        assertThat(ValueStrings.toText(Double.POSITIVE_INFINITY, d)).isEqualTo("Infinity");
        assertThat(ValueStrings.toText(Double.NEGATIVE_INFINITY, d)).isEqualTo("-Infinity");
        assertThat(ValueStrings.toText(1.0E7, d)).isEqualTo("1.0E7");
        assertThat(ValueStrings.toText(1.1f, f)).isEqualTo("1.1");
        assertThat(ValueStrings.toText(2.82879384806159E17f, f))
                .isEqualTo("2.8287938E17"); // JDK 17: 2.82879379E17
        assertThat(ValueStrings.toText(Float.MIN_VALUE, f)).isEqualTo("1.4E-45");
        assertThat(ValueStrings.toText(-0.0f, f)).isEqualTo("-0.0");
        assertThat(ValueStrings.toText(Float.NaN, f)).isEqualTo("NaN");
        assertThat(ValueStrings.toText(2.0E-3f, f)).isEqualTo("0.002");
        // Every text reads back to its value, as do the texts JDK 17 wrote into older tables.
        assertThat(ValueStrings.fromText("9.999999999999999E22", d)).isEqualTo(1.0E23);
        assertThat(ValueStrings.fromText("2.82879379E17", f)).isEqualTo(2.82879384806159E17f);
        assertThat(ValueStrings.fromText("-0.0", d)).isEqualTo(-0.0);
    }

    @Test
    void layoutAndTheOneDigitRule() {
        // The shortest decimal that rounds back to Double.MIN_VALUE is 5E-324; of length 1 or 2,
        // 4.9E-324 is the closest.
        assertThat(DoubleTexts.shortest(Double.MIN_VALUE)).isEqualTo("4.9E-324");
        assertThat(DoubleTexts.shortest(1.0E23)).isEqualTo("1.0E23");
        assertThat(DoubleTexts.shortest(2.0E-3)).isEqualTo("0.002");
        assertThat(DoubleTexts.shortest(9.999999999999998E-4)).isEqualTo("9.999999999999998E-4");
        assertThat(DoubleTexts.shortest(1.0E7)).isEqualTo("1.0E7");
        assertThat(DoubleTexts.shortest(9999999.0)).isEqualTo("9999999.0");
        assertThat(DoubleTexts.shortest(-123.0)).isEqualTo("-123.0");
        assertThat(DoubleTexts.shortest(0.1f)).isEqualTo("0.10000000149011612");
        assertThat(DoubleTexts.shortest(-0.0)).isEqualTo("-0.0");
        assertThat(DoubleTexts.shortest(Double.NaN)).isEqualTo("NaN");
        assertThat(DoubleTexts.shortest(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    }
}
