package io.weir.read;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * BINARY and VARBINARY values as STRING texts (docs/format.md §6.9) against utf8-replacement.txt,
 * whose texts weir-rs checks to be Rust's {@code String::from_utf8_lossy}: 3 000 byte strings, most
 * of them ill-formed (surrogates, overlongs, truncated and stray bytes), and the example of the
 * Unicode Standard's Table 3-8.
 */
class WellFormedUtf8Test {
    @Test
    void replacesEachMaximalIllFormedSubpart() throws IOException {
        int cases = 0;
        try (BufferedReader in =
                new BufferedReader(
                        new InputStreamReader(
                                Objects.requireNonNull(
                                        getClass().getResourceAsStream("utf8-replacement.txt")),
                                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split(" ");
                byte[] bytes = hex(parts[0]);
                assertThat(HexFormat.of().formatHex(WellFormedUtf8.of(bytes)))
                        .as(parts[0])
                        .isEqualTo(parts[1].equals("-") ? "" : parts[1]);
                cases++;
            }
        }
        assertThat(cases).isGreaterThan(2000);
    }

    @Test
    void wellFormedBytesAreReturnedAsTheyAre() {
        Random r = new Random(26);
        for (int i = 0; i < 2000; i++) {
            StringBuilder s = new StringBuilder();
            for (int k = r.nextInt(12); k > 0; k--) {
                s.appendCodePoint(
                        switch (r.nextInt(4)) {
                            case 0 -> r.nextInt(0x80);
                            case 1 -> 0x80 + r.nextInt(0x780);
                            case 2 -> 0xE000 + r.nextInt(0x2000);
                            default -> 0x10000 + r.nextInt(0x100000);
                        });
            }
            byte[] bytes = s.toString().getBytes(StandardCharsets.UTF_8);
            assertThat(WellFormedUtf8.of(bytes)).isSameAs(bytes);
        }
    }

    private static byte[] hex(String h) {
        return h.equals("-") ? new byte[0] : HexFormat.of().parseHex(h);
    }
}
