package io.weir.cli.format;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CsvPrinterTest {

    private static String field(String value) {
        StringBuilder sb = new StringBuilder();
        CsvPrinter.appendField(sb, value);
        return sb.toString();
    }

    @Test
    void quotesOnlyWhatRfc4180Requires() {
        assertThat(field("plain text")).isEqualTo("plain text");
        assertThat(field(" spaces kept ")).isEqualTo(" spaces kept ");
        assertThat(field("a,b")).isEqualTo("\"a,b\"");
        assertThat(field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(field("two\nlines")).isEqualTo("\"two\nlines\"");
        assertThat(field("cr\r")).isEqualTo("\"cr\r\"");
    }

    @Test
    void nullIsAnEmptyFieldAndTheEmptyStringIsQuoted() {
        assertThat(field(null)).isEmpty();
        assertThat(field("")).isEqualTo("\"\"");
    }
}
