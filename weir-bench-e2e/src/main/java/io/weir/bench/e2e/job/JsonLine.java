package io.weir.bench.e2e.job;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * A flat JSON object on one line, built by hand: the child JVMs have no JSON library of their own
 * (only their connectors' shaded ones).
 */
public final class JsonLine {
    private final StringBuilder json = new StringBuilder("{");

    public JsonLine put(String key, String value) {
        key(key);
        if (value == null) {
            json.append("null");
        } else {
            quote(value);
        }
        return this;
    }

    public JsonLine put(String key, long value) {
        key(key);
        json.append(value);
        return this;
    }

    /** Rounds to 6 significant decimals; NaN and infinities become null. */
    public JsonLine put(String key, double value) {
        key(key);
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            json.append("null");
        } else {
            json.append(
                    new BigDecimal(value)
                            .round(new MathContext(6))
                            .stripTrailingZeros()
                            .toPlainString());
        }
        return this;
    }

    public JsonLine put(String key, Boolean value) {
        key(key);
        json.append(value);
        return this;
    }

    @Override
    public String toString() {
        return json + "}";
    }

    private void key(String key) {
        if (json.length() > 1) {
            json.append(',');
        }
        quote(key);
        json.append(':');
    }

    private void quote(String s) {
        json.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
