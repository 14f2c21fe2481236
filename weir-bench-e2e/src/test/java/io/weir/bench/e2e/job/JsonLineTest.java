package io.weir.bench.e2e.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JsonLineTest {
    @Test
    void writesJsonThatParsesBack() throws Exception {
        String line =
                new JsonLine()
                        .put("phase", "in\"gest\n")
                        .put("seconds", 12.3456789)
                        .put("big", 123456789.0)
                        .put("round", 100000.0)
                        .put("nan", Double.NaN)
                        .put("bytes", 42L)
                        .put("verified", true)
                        .put("none", (Boolean) null)
                        .toString();
        assertThat(line).doesNotContain("\n");
        JsonNode json = new ObjectMapper().readTree(line);
        assertThat(json.path("phase").asText()).isEqualTo("in\"gest\n");
        assertThat(json.path("seconds").asDouble()).isEqualTo(12.3457);
        assertThat(json.path("big").asDouble()).isEqualTo(123457000.0);
        assertThat(json.path("round").asDouble()).isEqualTo(100000.0);
        assertThat(json.path("nan").isNull()).isTrue();
        assertThat(json.path("bytes").asLong()).isEqualTo(42);
        assertThat(json.path("verified").asBoolean()).isTrue();
        assertThat(json.path("none").isNull()).isTrue();
    }
}
