package io.weir.bench.e2e.job;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the driver's counting proxy's counters ({@code key=value} lines) over HTTP. */
final class RequestCounts {
    private RequestCounts() {}

    static Map<String, Long> fetch(String url) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout(10_000);
        try (InputStream in = c.getInputStream()) {
            Map<String, Long> counts = new LinkedHashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    counts.put(
                            line.substring(0, eq), Long.parseLong(line.substring(eq + 1).trim()));
                }
            }
            return counts;
        } finally {
            c.disconnect();
        }
    }
}
