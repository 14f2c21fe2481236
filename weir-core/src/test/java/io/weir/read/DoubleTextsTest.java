package io.weir.read;

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
