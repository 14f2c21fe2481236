package io.weir.bench.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 between the sinks and the S3 server that counts what passes:
 * requests by HTTP method, requests to data files (keys with a {@code bucket-<n>/} directory, where
 * both Weir and Paimon keep their data files) and to everything else (metadata, listings), new data
 * files (single PUTs and completed multipart uploads of data keys), and bytes each way (heads and
 * bodies; bytes sent are what the client sent, bytes received what the server answered).
 *
 * <p>It parses just enough HTTP to find where each request ends (Content-Length or chunked).
 * Responses stream back unparsed: an HTTP/1.1 client sends a connection's next request only after
 * reading the previous response. {@code Expect: 100-continue} (not signed by SigV4) is answered
 * here and not forwarded, so that the server's only answers are final ones.
 *
 * <p>{@code GET /__weir-bench/counts} is answered by the proxy itself, not counted: every counter
 * as a {@code key=value} line. The child JVM reads it before and after its ingestion.
 */
final class CountingProxy implements AutoCloseable {
    static final String COUNTS_PATH = "/__weir-bench/counts";

    private final ServerSocket server;
    private final String upstreamHost;
    private final int upstreamPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicLong> counters = new TreeMap<>();
    private volatile boolean closed;
    private final PrintWriter trace;

    CountingProxy(String upstreamHost, int upstreamPort) throws IOException {
        this(upstreamHost, upstreamPort, null);
    }

    /**
     * @param trace a file to append one line per request to, or null
     */
    CountingProxy(String upstreamHost, int upstreamPort, Path trace) throws IOException {
        this.trace =
                trace == null
                        ? null
                        : new PrintWriter(
                                Files.newBufferedWriter(
                                        trace,
                                        StandardCharsets.UTF_8,
                                        StandardOpenOption.CREATE,
                                        StandardOpenOption.APPEND),
                                true);
        this.upstreamHost = upstreamHost;
        this.upstreamPort = upstreamPort;
        this.server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        for (String key :
                List.of(
                        "requests",
                        "bytes_sent",
                        "bytes_received",
                        "data_requests",
                        "meta_requests",
                        "data_files",
                        "get",
                        "head",
                        "put",
                        "post",
                        "delete",
                        "other",
                        "meta_get",
                        "meta_head",
                        "meta_put",
                        "meta_post",
                        "meta_delete",
                        "meta_other")) {
            counters.put(key, new AtomicLong());
        }
        Thread acceptor = new Thread(this::accept, "weir-bench-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    String countsUrl() {
        return endpoint() + COUNTS_PATH;
    }

    /** Every counter, in name order. */
    Map<String, Long> counts() {
        Map<String, Long> snapshot = new LinkedHashMap<>();
        counters.forEach((k, v) -> snapshot.put(k, v.get()));
        return snapshot;
    }

    /** Counts one request (its head and body bytes) by its method and target. */
    void countRequest(String method, String target, long bytes) {
        if (trace != null) {
            synchronized (trace) {
                trace.println(
                        System.currentTimeMillis() + " " + method + " " + target + " " + bytes);
            }
        }
        String m = method.toLowerCase(Locale.ROOT);
        if (!List.of("get", "head", "put", "post", "delete").contains(m)) {
            m = "other";
        }
        add("requests", 1);
        add(m, 1);
        add("bytes_sent", bytes);
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? "" : target.substring(q + 1);
        String listed = listedPrefix(path, query);
        if (isDataKey(listed != null ? listed : path)) {
            add("data_requests", 1);
            boolean singlePut = m.equals("put") && !query.contains("partNumber=");
            boolean completed = m.equals("post") && query.contains("uploadId=");
            if (singlePut || completed) {
                add("data_files", 1);
            }
        } else {
            add("meta_requests", 1);
            add("meta_" + m, 1);
        }
    }

    /** For a listing ({@code GET /bucket/?list-type=2&prefix=p}), {@code /bucket/p}; else null. */
    static String listedPrefix(String path, String query) {
        if (!query.contains("list-type=") && !query.contains("prefix=")) {
            return null;
        }
        for (String param : query.split("&")) {
            if (param.startsWith("prefix=")) {
                String prefix =
                        URLDecoder.decode(
                                param.substring("prefix=".length()), StandardCharsets.UTF_8);
                return (path.endsWith("/") ? path : path + "/") + prefix;
            }
        }
        return null;
    }

    /**
     * Whether a path ({@code /bucket/key}) names a data file: a key below a {@code bucket-<n>/}.
     */
    static boolean isDataKey(String path) {
        int i = path.indexOf("/bucket-");
        while (i >= 0) {
            int j = i + "/bucket-".length();
            int k = j;
            while (k < path.length() && Character.isDigit(path.charAt(k))) {
                k++;
            }
            if (k > j && k < path.length() - 1 && path.charAt(k) == '/') {
                return true;
            }
            i = path.indexOf("/bucket-", j);
        }
        return false;
    }

    private void add(String key, long n) {
        counters.get(key).addAndGet(n);
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                sockets.add(client);
                Thread t = new Thread(() -> serve(client), "weir-bench-proxy-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        Socket upstream = null;
        try (client) {
            client.setTcpNoDelay(true);
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            while (true) {
                byte[] head = readHead(in);
                if (head == null) {
                    return;
                }
                String text = new String(head, StandardCharsets.ISO_8859_1);
                String[] requestLine = text.substring(0, text.indexOf("\r\n")).split(" ");
                Map<String, String> headers = headers(text);
                if (requestLine[1].startsWith(COUNTS_PATH)) {
                    answerCounts(out);
                    if (trace != null && requestLine[1].contains("?mark=")) {
                        synchronized (trace) {
                            trace.println(System.currentTimeMillis() + " MARK " + requestLine[1]);
                        }
                    }
                    continue;
                }
                if ("100-continue".equalsIgnoreCase(headers.get("expect"))) {
                    out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
                if (upstream == null) {
                    upstream = new Socket(upstreamHost, upstreamPort);
                    upstream.setTcpNoDelay(true);
                    sockets.add(upstream);
                    Thread pump = pump(upstream, client);
                    pump.start();
                }
                // Counted before anything goes upstream: its response reaches the client on the
                // pump thread, and whoever reads the counters then must see this request in them.
                boolean chunked = "chunked".equalsIgnoreCase(headers.get("transfer-encoding"));
                long declared =
                        chunked ? 0 : Long.parseLong(headers.getOrDefault("content-length", "0"));
                countRequest(requestLine[0], requestLine[1], head.length + declared);
                OutputStream up = upstream.getOutputStream();
                up.write(withoutExpect(text));
                if (chunked) {
                    copyChunked(in, up, n -> add("bytes_sent", n));
                } else {
                    copy(in, up, declared);
                }
                up.flush();
            }
        } catch (IOException e) {
            // the connection ended; the other side sees it closed
        } finally {
            closeQuietly(upstream);
        }
    }

    private void answerCounts(OutputStream out) throws IOException {
        StringBuilder body = new StringBuilder();
        counts().forEach((k, v) -> body.append(k).append('=').append(v).append('\n'));
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        out.write(
                ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
                                + bytes.length
                                + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
    }

    /** Streams the server's responses to the client, counting their bytes. */
    private Thread pump(Socket upstream, Socket client) {
        Thread thread =
                new Thread(
                        () -> {
                            byte[] buf = new byte[64 << 10];
                            try {
                                InputStream in = upstream.getInputStream();
                                OutputStream out = client.getOutputStream();
                                int n;
                                while ((n = in.read(buf)) > 0) {
                                    out.write(buf, 0, n);
                                    out.flush();
                                    add("bytes_received", n);
                                }
                            } catch (IOException e) {
                                // either side closed
                            } finally {
                                closeQuietly(upstream);
                                closeQuietly(client);
                            }
                        },
                        "weir-bench-proxy-pump");
        thread.setDaemon(true);
        return thread;
    }

    /** The bytes up to and including the blank line, or null at the end of the stream. */
    static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toByteArray();
    }

    private static Map<String, String> headers(String head) {
        Map<String, String> headers = new LinkedHashMap<>();
        String[] lines = head.split("\r\n");
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        return headers;
    }

    private static byte[] withoutExpect(String head) {
        StringBuilder out = new StringBuilder();
        for (String line : head.split("\r\n")) {
            if (!line.toLowerCase(Locale.ROOT).startsWith("expect:")) {
                out.append(line).append("\r\n");
            }
        }
        out.append("\r\n");
        return out.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void copy(InputStream in, OutputStream out, long n) throws IOException {
        byte[] buf = new byte[64 << 10];
        while (n > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, n));
            if (r < 0) {
                throw new IOException("The client closed mid-request");
            }
            out.write(buf, 0, r);
            n -= r;
        }
    }

    /** Copies a chunked body with its framing, counting each piece before it is sent on. */
    private static void copyChunked(InputStream in, OutputStream out, LongConsumer counted)
            throws IOException {
        while (true) {
            String sizeLine = readLine(in);
            byte[] line = (sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
            counted.accept(line.length);
            out.write(line);
            int semi = sizeLine.indexOf(';');
            long size =
                    Long.parseLong((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
            if (size == 0) {
                // trailers, then the blank line
                while (true) {
                    String trailer = readLine(in);
                    byte[] t = (trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
                    counted.accept(t.length);
                    out.write(t);
                    if (trailer.isEmpty()) {
                        return;
                    }
                }
            }
            counted.accept(size + 2);
            copy(in, out, size + 2); // the data and its CRLF
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder s = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                int len = s.length();
                return len > 0 && s.charAt(len - 1) == '\r'
                        ? s.substring(0, len - 1)
                        : s.toString();
            }
            s.append((char) b);
        }
        throw new IOException("The client closed mid-request");
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        if (trace != null) {
            trace.close();
        }
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }
}
