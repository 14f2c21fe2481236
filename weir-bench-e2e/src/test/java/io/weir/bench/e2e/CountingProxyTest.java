package io.weir.bench.e2e;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CountingProxyTest {
    @Test
    void classifiesDataKeysAndListings() {
        assertThat(CountingProxy.isDataKey("/b/w/default.db/t/bucket-0/data-1.parquet")).isTrue();
        assertThat(CountingProxy.isDataKey("/b/w/t/p=1/bucket-12/log-x.wlog")).isTrue();
        assertThat(CountingProxy.isDataKey("/b/w/t/_weir/commits/00000000000000000001.json"))
                .isFalse();
        assertThat(CountingProxy.isDataKey("/b/w/t/bucket-0/")).isFalse();
        assertThat(CountingProxy.isDataKey("/b/w/t/bucket-x/f")).isFalse();
        assertThat(CountingProxy.listedPrefix("/b/", "list-type=2&prefix=w%2Ft%2Fbucket-0%2Fd"))
                .isEqualTo("/b/w/t/bucket-0/d");
        assertThat(CountingProxy.listedPrefix("/b/k", "partNumber=1&uploadId=2")).isNull();
    }

    @Test
    void countsRequestsByMethodKindAndBytes() throws Exception {
        try (Upstream upstream = new Upstream();
                CountingProxy proxy = new CountingProxy("127.0.0.1", upstream.port())) {
            HttpClient http = HttpClient.newHttpClient();
            String base = proxy.endpoint();
            byte[] body = new byte[1000];
            send(http, "PUT", base + "/b/t/bucket-0/data-1.parquet", body); // new file
            send(http, "PUT", base + "/b/t/bucket-0/data-2.parquet?partNumber=1&uploadId=u", body);
            send(http, "POST", base + "/b/t/bucket-0/data-2.parquet?uploadId=u", new byte[10]);
            send(http, "HEAD", base + "/b/t/bucket-0/data-1.parquet", null);
            send(http, "PUT", base + "/b/t/_weir/commits/00000000000000000001.json", body);
            send(http, "GET", base + "/b/?list-type=2&prefix=t%2F_weir%2Fcommits%2F", null);
            Map<String, Long> counts = proxy.counts();
            assertThat(counts)
                    .containsEntry("requests", 6L)
                    .containsEntry("put", 3L)
                    .containsEntry("post", 1L)
                    .containsEntry("head", 1L)
                    .containsEntry("get", 1L)
                    .containsEntry("data_requests", 4L)
                    .containsEntry("data_files", 2L)
                    .containsEntry("meta_requests", 2L)
                    .containsEntry("meta_put", 1L)
                    .containsEntry("meta_get", 1L);
            assertThat(counts.get("bytes_sent")).isGreaterThan(3 * 1000 + 10);
            assertThat(counts.get("bytes_received")).isGreaterThanOrEqualTo(6 * 2);
            assertThat(upstream.bodyBytes).isEqualTo(3 * 1000 + 10);

            // The counters, answered by the proxy itself and not counted.
            String text =
                    http.send(
                                    HttpRequest.newBuilder(URI.create(proxy.countsUrl())).build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body();
            assertThat(text).contains("requests=6\n").contains("data_files=2\n");
            assertThat(proxy.counts()).containsEntry("requests", 6L);
        }
    }

    private static void send(HttpClient http, String method, String url, byte[] body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        b.method(
                method,
                body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
    }

    /** Answers every request with 200 and a 2-byte body ("ok"; none for HEAD). */
    private static final class Upstream implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        volatile long bodyBytes;

        Upstream() throws IOException {
            Thread t =
                    new Thread(
                            () -> {
                                while (!server.isClosed()) {
                                    try {
                                        Socket s = server.accept();
                                        Thread c = new Thread(() -> serve(s));
                                        c.setDaemon(true);
                                        c.start();
                                    } catch (IOException e) {
                                        return;
                                    }
                                }
                            });
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void serve(Socket s) {
            try (s) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                while (true) {
                    byte[] head = CountingProxy.readHead(in);
                    if (head == null) {
                        return;
                    }
                    String text = new String(head, StandardCharsets.ISO_8859_1);
                    long length = 0;
                    for (String line : text.split("\r\n")) {
                        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                            length = Long.parseLong(line.substring(15).trim());
                        }
                    }
                    ByteArrayOutputStream body = new ByteArrayOutputStream();
                    body.write(in.readNBytes((int) length));
                    synchronized (this) {
                        bodyBytes += body.size();
                    }
                    boolean isHead = text.startsWith("HEAD ");
                    out.write(
                            ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n" + (isHead ? "" : "ok"))
                                    .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            } catch (IOException e) {
                // closed
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
