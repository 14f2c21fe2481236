package io.weir.bench.e2e;

import io.weir.bench.e2e.job.RemoteWarehouse;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The object store of a {@code --warehouse s3...} session: where each run's warehouse goes ({@code
 * <root>/<run>/warehouse}), the storage options that reach it, the versitygw that the driver
 * started (if it did) and the counting proxy that every request of the sinks goes through (for an
 * {@code http://} endpoint).
 */
final class S3Setup implements RemoteStore {
    private final String root;
    private final Map<String, String> options;
    private final LocalS3Server server;
    private final CountingProxy proxy;
    private final boolean keep;

    private S3Setup(
            String root,
            Map<String, String> options,
            LocalS3Server server,
            CountingProxy proxy,
            boolean keep) {
        this.root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        this.options = Map.copyOf(options);
        this.server = server;
        this.proxy = proxy;
        this.keep = keep;
    }

    /**
     * Opens the session's store: {@code warehouse} is {@code s3} (start versitygw under {@code
     * workDir}, bucket {@value LocalS3Server#BUCKET}) or {@code s3://bucket/prefix} (with {@code
     * s3.endpoint} among {@code conf}, else versitygw is started and the bucket made there).
     */
    static S3Setup open(String warehouse, Map<String, String> conf, Path workDir, boolean keep)
            throws IOException, InterruptedException {
        Map<String, String> options = new LinkedHashMap<>(conf);
        String root;
        LocalS3Server server = null;
        if (warehouse.equals("s3") || !options.containsKey("s3.endpoint")) {
            String bucket = LocalS3Server.BUCKET;
            String prefix = "runs";
            if (!warehouse.equals("s3")) {
                URI uri = URI.create(warehouse);
                if (!"s3".equals(uri.getScheme()) || uri.getHost() == null) {
                    throw new IllegalArgumentException(
                            "--warehouse must be s3 or s3://bucket/path, not " + warehouse);
                }
                if (!uri.getHost().equals(LocalS3Server.BUCKET)) {
                    throw new IllegalArgumentException(
                            "Without --s3-endpoint the bench starts versitygw with the bucket "
                                    + LocalS3Server.BUCKET
                                    + ": use --warehouse s3 or s3://"
                                    + LocalS3Server.BUCKET
                                    + "/path, or give --s3-endpoint and credentials");
                }
                String path = uri.getPath().replaceAll("^/+|/+$", "");
                prefix = path.isEmpty() ? prefix : path;
            }
            server = LocalS3Server.start(workDir);
            root = "s3://" + bucket + "/" + prefix;
            options.put("s3.endpoint", server.endpoint());
            options.put("s3.path-style-access", "true");
            options.put("s3.region", "us-east-1");
            options.put("s3.access-key", LocalS3Server.ACCESS_KEY);
            options.put("s3.secret-key", LocalS3Server.SECRET_KEY);
        } else {
            URI uri = URI.create(warehouse);
            if (!"s3".equals(uri.getScheme())) {
                throw new IllegalArgumentException(
                        "--warehouse must be s3 or s3://bucket/path, not " + warehouse);
            }
            root = warehouse;
        }
        CountingProxy proxy = null;
        URI endpoint = URI.create(options.get("s3.endpoint"));
        if ("http".equals(endpoint.getScheme())) {
            int port = endpoint.getPort() < 0 ? 80 : endpoint.getPort();
            Path logs = workDir.resolve("logs");
            java.nio.file.Files.createDirectories(logs);
            proxy = new CountingProxy(endpoint.getHost(), port, logs.resolve("s3-requests.log"));
        }
        return new S3Setup(root, options, server, proxy, keep);
    }

    @Override
    public String name() {
        return "S3";
    }

    /** The warehouse of one run, through the proxy. */
    @Override
    public RemoteWarehouse forRun(String runName) {
        Map<String, String> runOptions = new LinkedHashMap<>(options);
        if (proxy != null) {
            runOptions.put("s3.endpoint", proxy.endpoint());
        }
        String key = keyOf(runName);
        return new RemoteWarehouse(
                root + "/" + runName + "/warehouse",
                runOptions,
                server == null ? null : server.filesOf(key + "/warehouse"),
                proxy == null ? null : proxy.countsUrl());
    }

    /** Deletes a run's objects (on the local server's disk), unless they are to be kept. */
    @Override
    public void finished(String runName) {
        if (server != null && !keep) {
            LocalS3Server.delete(server.filesOf(keyOf(runName)));
        }
    }

    private String keyOf(String runName) {
        String path = URI.create(root).getPath().replaceAll("^/+|/+$", "");
        return path.isEmpty() ? runName : path + "/" + runName;
    }

    @Override
    public String describe() {
        String what =
                server != null
                        ? "versitygw 1.8.0 (posix backend) started by the driver on 127.0.0.1"
                        : "the S3 endpoint " + options.get("s3.endpoint");
        return what
                + ", warehouse "
                + root
                + "/<run>/warehouse"
                + (proxy != null
                        ? ", every request through the driver's counting proxy on 127.0.0.1"
                        : " (https endpoint: requests not counted)");
    }

    @Override
    public void close() throws IOException {
        if (proxy != null) {
            proxy.close();
        }
        if (server != null) {
            server.close();
        }
    }
}
