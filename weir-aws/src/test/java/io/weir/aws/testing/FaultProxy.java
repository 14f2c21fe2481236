package io.weir.aws.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 in front of {@link S3Server} that injects faults, request by
 * request, as a rule decides: drop the connection in the middle of an upload, answer 500 or 503
 * itself, delay, forward a request but lose its response (the server applied it, the client never
 * hears), or pretend to apply a conditional PUT (a server that ignores {@code If-None-Match}).
 *
 * <p>It parses just enough HTTP to find where each request ends (requests from the SDK always carry
 * a Content-Length). Responses stream back unparsed: the SDK sends a connection's next request only
 * after reading the previous response, so the bytes that arrive after a request was forwarded are
 * its response. {@code Expect: 100-continue} (not signed by SigV4) is answered here and not
 * forwarded, so that the server's only answers are final ones.
 */
public final class FaultProxy implements AutoCloseable {

    /** What to do with one request. */
    public enum Fault {
        FORWARD,
        /** Forward the head and half the body, then close both connections. */
        DROP_MID_REQUEST,
        /** Answer 500 InternalError without forwarding. */
        RESPOND_500,
        /** Answer 503 SlowDown without forwarding. */
        RESPOND_503,
        /** Wait {@link #delayMillis} and forward. */
        DELAY,
        /** Forward the whole request, then close both connections when the response starts. */
        DROP_RESPONSE,
        /** Answer 200 without forwarding, as a server that ignores the request's conditions. */
        FAKE_OK
    }

    /** A request's head. Header names are in lower case. */
    public record Request(String method, String target, Map<String, String> headers) {
        public boolean isConditionalPut() {
            return method.equals("PUT") && headers.containsKey("if-none-match");
        }

        /** The path without the query, e.g. {@code /bucket/key}. */
        public String path() {
            int q = target.indexOf('?');
            return q < 0 ? target : target.substring(0, q);
        }

        public boolean isUploadPart() {
            return method.equals("PUT") && target.contains("partNumber=");
        }

        public long contentLength() {
            return Long.parseLong(headers.getOrDefault("content-length", "0"));
        }
    }

    private final ServerSocket server;
    private final int upstreamPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger faults = new AtomicInteger();
    private volatile Function<Request, Fault> rule = r -> Fault.FORWARD;
    private volatile long delayMillis = 200;
    private volatile boolean closed;

    public FaultProxy(int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "fault-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String endpoint() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Decides, from now on, the fault of each request. */
    public FaultProxy rule(Function<Request, Fault> rule) {
        this.rule = rule;
        return this;
    }

    public FaultProxy delayMillis(long millis) {
        this.delayMillis = millis;
        return this;
    }

    /** Faults injected so far (every request not simply forwarded). */
    public int faults() {
        return faults.get();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                sockets.add(client);
                Thread t = new Thread(() -> serve(client), "fault-proxy-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        Socket upstream = null;
        Pump pump = null;
        try (client) {
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            while (true) {
                byte[] head = readHead(in);
                if (head == null) {
                    return;
                }
                Request request = parse(head);
                if ("100-continue".equalsIgnoreCase(request.headers().get("expect"))) {
                    out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
                Fault fault = rule.apply(request);
                if (fault != Fault.FORWARD) {
                    faults.incrementAndGet();
                }
                switch (fault) {
                    case RESPOND_500, RESPOND_503, FAKE_OK -> {
                        in.skipNBytes(request.contentLength());
                        out.write(answer(fault));
                        out.flush();
                        return; // the answers say Connection: close
                    }
                    case DELAY -> Thread.sleep(delayMillis);
                    default -> {}
                }
                if (upstream == null) {
                    upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                    sockets.add(upstream);
                    pump = new Pump(upstream, client);
                    pump.start();
                }
                OutputStream up = upstream.getOutputStream();
                up.write(withoutExpect(head));
                long body = request.contentLength();
                if (fault == Fault.DROP_MID_REQUEST) {
                    copy(in, up, body / 2);
                    up.flush();
                    return; // closes both connections mid-body
                }
                if (fault == Fault.DROP_RESPONSE) {
                    pump.dropNext = true;
                }
                copy(in, up, body);
                up.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the connection ended; the other side sees it closed
        } finally {
            closeQuietly(upstream);
        }
    }

    /** Streams the server's responses to the client, or drops one and cuts the connection. */
    private final class Pump extends Thread {
        private final Socket upstream;
        private final Socket client;
        volatile boolean dropNext;

        Pump(Socket upstream, Socket client) {
            super("fault-proxy-pump");
            setDaemon(true);
            this.upstream = upstream;
            this.client = client;
        }

        @Override
        public void run() {
            byte[] buf = new byte[64 << 10];
            try {
                InputStream in = upstream.getInputStream();
                OutputStream out = client.getOutputStream();
                int n;
                while ((n = in.read(buf)) > 0) {
                    if (dropNext) {
                        break; // the server answered; the client never hears it
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // either side closed
            } finally {
                closeQuietly(upstream);
                closeQuietly(client);
            }
        }
    }

    private static byte[] answer(Fault fault) {
        String status;
        String body;
        switch (fault) {
            case RESPOND_500 -> {
                status = "500 Internal Server Error";
                body = error("InternalError", "injected by the test proxy");
            }
            case RESPOND_503 -> {
                status = "503 Slow Down";
                body = error("SlowDown", "injected by the test proxy");
            }
            default -> {
                status = "200 OK";
                body = "";
            }
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head =
                "HTTP/1.1 "
                        + status
                        + "\r\nContent-Type: application/xml\r\nETag: \"0f0f0f\"\r\nContent-Length: "
                        + bytes.length
                        + "\r\nConnection: close\r\n\r\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(bytes);
        return out.toByteArray();
    }

    private static String error(String code, String message) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                + code
                + "</Code><Message>"
                + message
                + "</Message></Error>";
    }

    /** The bytes up to and including the blank line, or null at the end of the stream. */
    private static byte[] readHead(InputStream in) throws IOException {
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

    private static Request parse(byte[] head) {
        String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] requestLine = lines[0].split(" ");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        if (headers.containsKey("transfer-encoding")) {
            throw new IllegalStateException("The test proxy cannot frame chunked requests");
        }
        return new Request(requestLine[0], requestLine[1], headers);
    }

    private static byte[] withoutExpect(byte[] head) {
        String text = new String(head, StandardCharsets.ISO_8859_1);
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\r\n")) {
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
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }
}
