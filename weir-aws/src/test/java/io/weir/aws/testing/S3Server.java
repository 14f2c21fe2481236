package io.weir.aws.testing;

import io.weir.options.StorageOptions;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A real S3-compatible server for tests: versitygw 1.8.0 (posix backend) as a child process on
 * 127.0.0.1, a free port and a data directory of its own. One per JVM, started on first use and
 * stopped by a shutdown hook. The binary is {@code $WEIR_VERSITYGW}, else {@code
 * ~/.cache/weir-test-bin/versitygw-1.8.0} ({@code .ci/run} builds it). Without it the tests fail:
 * an S3 test that silently skips proves nothing.
 */
public final class S3Server {
    public static final String ACCESS_KEY = "testkey";
    public static final String SECRET_KEY = "testsecret";
    public static final String BUCKET = "weir-test";
    public static final String BINARY_ENV = "WEIR_VERSITYGW";

    private static S3Server instance;

    private final Process process;
    private final int port;
    private final Path dataDir;
    private final Path logFile;

    private S3Server(Process process, int port, Path dataDir, Path logFile) {
        this.process = process;
        this.port = port;
        this.dataDir = dataDir;
        this.logFile = logFile;
    }

    /** The JVM's server, started on first use, with the bucket {@link #BUCKET}. */
    public static synchronized S3Server get() {
        if (instance == null) {
            instance = start();
            instance.createBucket(BUCKET);
        }
        return instance;
    }

    public static Path binary() {
        String env = System.getenv(BINARY_ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".cache/weir-test-bin/versitygw-1.8.0");
    }

    private static S3Server start() {
        Path bin = binary();
        if (!Files.isExecutable(bin)) {
            throw new IllegalStateException(
                    "The S3 tests need versitygw 1.8.0 at "
                            + bin
                            + " (set "
                            + BINARY_ENV
                            + " to its path). Build it with: GOBIN=~/.cache/weir-test-bin go install"
                            + " github.com/versity/versitygw/cmd/versitygw@v1.8.0 && mv"
                            + " ~/.cache/weir-test-bin/versitygw"
                            + " ~/.cache/weir-test-bin/versitygw-1.8.0 (.ci/run does this)");
        }
        try {
            Path dataDir = Files.createTempDirectory("weir-versitygw-");
            Path logFile = Files.createTempFile("weir-versitygw-", ".log");
            int port = freePort();
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
            pb.redirectOutput(logFile.toFile());
            Process process = pb.start();
            S3Server server = new S3Server(process, port, dataDir, logFile);
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(server::stop, "weir-versitygw-shutdown"));
            server.awaitReady();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot start versitygw from " + bin + ": " + e, e);
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "versitygw exited with code "
                                + process.exitValue()
                                + " right after starting; its output:\n"
                                + log());
            }
            try {
                HttpURLConnection c =
                        (HttpURLConnection) URI.create(endpoint()).toURL().openConnection();
                c.setConnectTimeout(500);
                c.setReadTimeout(2000);
                c.getResponseCode(); // any answer (403 without credentials) means it serves
                c.disconnect();
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        stop();
        throw new IllegalStateException(
                "versitygw did not answer on "
                        + endpoint()
                        + " within 30 s; its output:\n"
                        + log());
    }

    private String log() {
        try {
            return Files.readString(logFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + logFile + ": " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The storage options that reach this server through {@code endpoint}. */
    public static StorageOptions options(String endpoint) {
        Map<String, String> options = new TreeMap<>();
        options.put(StorageOptions.S3_ENDPOINT.key(), endpoint);
        options.put(StorageOptions.S3_PATH_STYLE_ACCESS.key(), "true");
        options.put(StorageOptions.S3_REGION.key(), "us-east-1");
        options.put(StorageOptions.S3_ACCESS_KEY.key(), ACCESS_KEY);
        options.put(StorageOptions.S3_SECRET_KEY.key(), SECRET_KEY);
        return StorageOptions.of(options);
    }

    /** The storage options that reach this server. */
    public StorageOptions options() {
        return options(endpoint());
    }

    /** A plain SDK client for checks that go around the FileIO; close it after use. */
    public S3Client newClient() {
        return S3Client.builder()
                .endpointOverride(URI.create(endpoint()))
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(
                        StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .build();
    }

    public void createBucket(String bucket) {
        try (S3Client client = newClient()) {
            client.createBucket(b -> b.bucket(bucket));
        }
    }

    /** The multipart uploads begun and neither completed nor aborted under a prefix. */
    public List<String> pendingUploads(String bucket, String prefix) {
        try (S3Client client = newClient()) {
            return client
                    .listMultipartUploads(b -> b.bucket(bucket).prefix(prefix))
                    .uploads()
                    .stream()
                    .map(u -> u.key() + " " + u.uploadId())
                    .toList();
        }
    }

    private void stop() {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the OS cleans it eventually
        }
        try {
            Files.deleteIfExists(logFile);
        } catch (IOException ignored) {
            // as above
        }
    }
}
