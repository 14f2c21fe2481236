package io.weir.bench.e2e;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The S3 server that {@code weir bench --warehouse s3} starts for itself: versitygw 1.8.0 (posix
 * backend; {@code $WEIR_VERSITYGW}, else {@code ~/.cache/weir-test-bin/versitygw-1.8.0}, as the
 * tests use) on 127.0.0.1, a free port, and a data directory of its own in which the bucket is a
 * directory (the posix backend serves every directory of its root as a bucket to the root user).
 * Objects are plain files there, so a table's size is measured on disk. Stopped by {@link
 * #close()}.
 */
final class LocalS3Server implements AutoCloseable {
    static final String ACCESS_KEY = "weirbench";
    static final String SECRET_KEY = "weirbenchsecret";
    static final String BUCKET = "weir-bench";

    private final Process process;
    private final int port;
    private final Path dataDir;

    private LocalS3Server(Process process, int port, Path dataDir) {
        this.process = process;
        this.port = port;
        this.dataDir = dataDir;
    }

    static Path binary() {
        String env = System.getenv("WEIR_VERSITYGW");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".cache/weir-test-bin/versitygw-1.8.0");
    }

    /** Starts the server with its data directory under {@code parent}. */
    static LocalS3Server start(Path parent) throws IOException, InterruptedException {
        Path bin = binary();
        if (!Files.isExecutable(bin)) {
            throw new IllegalArgumentException(
                    "--warehouse s3 needs versitygw 1.8.0 at "
                            + bin
                            + " (or $WEIR_VERSITYGW). Build it with: GOBIN=~/.cache/weir-test-bin"
                            + " go install github.com/versity/versitygw/cmd/versitygw@v1.8.0 && mv"
                            + " ~/.cache/weir-test-bin/versitygw"
                            + " ~/.cache/weir-test-bin/versitygw-1.8.0; or give --s3-endpoint");
        }
        Files.createDirectories(parent);
        Path dataDir = Files.createTempDirectory(parent, "versitygw-");
        Files.createDirectories(dataDir.resolve(BUCKET));
        Path log = parent.resolve("logs").resolve(dataDir.getFileName() + ".log");
        Files.createDirectories(log.getParent());
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        ProcessBuilder pb =
                new ProcessBuilder(
                        bin.toString(),
                        "--port",
                        "127.0.0.1:" + port,
                        "--keep-alive",
                        "--quiet",
                        "posix",
                        dataDir.toString());
        pb.environment().put("ROOT_ACCESS_KEY", ACCESS_KEY);
        pb.environment().put("ROOT_SECRET_KEY", SECRET_KEY);
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        Process process = pb.start();
        LocalS3Server server = new LocalS3Server(process, port, dataDir);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            if (!process.isAlive()) {
                throw new IOException(
                        "versitygw exited with " + process.exitValue() + "; its log: " + log);
            }
            try {
                HttpURLConnection c =
                        (HttpURLConnection) URI.create(server.endpoint()).toURL().openConnection();
                c.setConnectTimeout(500);
                c.getResponseCode(); // any answer (403 without credentials) means it serves
                c.disconnect();
                return server;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    server.close();
                    throw new IOException("versitygw did not answer within 30 s; its log: " + log);
                }
                Thread.sleep(50);
            }
        }
    }

    String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    /** Where the objects under {@code key} of the bucket lie on disk. */
    Path filesOf(String key) {
        return dataDir.resolve(BUCKET).resolve(key);
    }

    /** Stops the server (by its process) and deletes its data. */
    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        delete(dataDir);
    }

    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort
        }
    }
}
