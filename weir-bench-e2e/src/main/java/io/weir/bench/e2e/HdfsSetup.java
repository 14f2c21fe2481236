package io.weir.bench.e2e;

import io.weir.bench.e2e.job.RemoteWarehouse;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HDFS of a {@code --warehouse hdfs...} session (docs/benchmark.md, "On HDFS"): where each
 * run's warehouse goes ({@code <root>/<run>/warehouse}), the storage options that reach it ({@code
 * hadoop.<key>}, which both Weir and Paimon hand to their Hadoop clients), the MiniDFSCluster that
 * the driver started (if it did) and the NameNode's counters ({@link NameNodeCounts}, when its HTTP
 * address is known).
 */
final class HdfsSetup implements RemoteStore {
    private final String root;
    private final Map<String, String> options;
    private final LocalHdfs cluster;
    private final String nameNodeHttp;
    private final NameNodeCounts counts;
    private final boolean keep;

    private HdfsSetup(
            String root,
            Map<String, String> options,
            LocalHdfs cluster,
            String nameNodeHttp,
            NameNodeCounts counts,
            boolean keep) {
        this.root = root.replaceAll("/+$", "");
        this.options = Map.copyOf(options);
        this.cluster = cluster;
        this.nameNodeHttp = nameNodeHttp;
        this.counts = counts;
        this.keep = keep;
    }

    /**
     * Opens the session's HDFS: {@code warehouse} is {@code hdfs} (start a MiniDFSCluster under
     * {@code workDir}, warehouses under {@code /weir-bench}) or {@code hdfs://host:port/path} (an
     * existing cluster; its NameNode's counters are read if {@code nameNodeHttp}, {@code
     * http://host:port} of its web server, is given).
     */
    static HdfsSetup open(
            String warehouse,
            Map<String, String> conf,
            Path workDir,
            boolean keep,
            BenchLibs libs,
            String nameNodeHttp)
            throws IOException, InterruptedException {
        Map<String, String> options = new LinkedHashMap<>(conf);
        if (warehouse.equals("hdfs")) {
            if (nameNodeHttp != null) {
                throw new IllegalArgumentException(
                        "--namenode-http goes with --warehouse hdfs://host:port/path (with"
                                + " --warehouse hdfs the bench starts its own cluster)");
            }
            LocalHdfs cluster = LocalHdfs.start(workDir, libs.classpathOfSets("hdfs-cluster"));
            try {
                // One DataNode: one replica (the client's default is 3).
                options.putIfAbsent("hadoop.dfs.replication", "1");
                return new HdfsSetup(
                        "hdfs://127.0.0.1:" + cluster.rpcPort() + "/weir-bench",
                        options,
                        cluster,
                        cluster.httpAddress(),
                        new NameNodeCounts(cluster.httpAddress(), cluster.rpcPort()),
                        keep);
            } catch (IOException | RuntimeException e) {
                cluster.close();
                throw e;
            }
        }
        URI uri = URI.create(warehouse);
        if (!"hdfs".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException(
                    "--warehouse must be hdfs or hdfs://host:port/path, not " + warehouse);
        }
        int port = uri.getPort() < 0 ? 8020 : uri.getPort();
        return new HdfsSetup(
                warehouse,
                options,
                null,
                nameNodeHttp,
                nameNodeHttp == null ? null : new NameNodeCounts(nameNodeHttp, port),
                keep);
    }

    @Override
    public String name() {
        return "HDFS";
    }

    @Override
    public RemoteWarehouse forRun(String runName) {
        return new RemoteWarehouse(
                root + "/" + runName + "/warehouse",
                options,
                null,
                counts == null ? null : counts.countsUrl());
    }

    /** Deletes the run's directory through WebHDFS, if the NameNode's web server is known. */
    @Override
    public void finished(String runName) {
        if (keep || nameNodeHttp == null) {
            return;
        }
        String path = URI.create(root).getPath() + "/" + runName;
        try {
            HttpURLConnection c =
                    (HttpURLConnection)
                            URI.create(
                                            nameNodeHttp.replaceAll("/+$", "")
                                                    + "/webhdfs/v1"
                                                    + path
                                                    + "?op=DELETE&recursive=true&user.name="
                                                    + URLEncoder.encode(
                                                            System.getProperty("user.name"),
                                                            StandardCharsets.UTF_8))
                                    .toURL()
                                    .openConnection();
            c.setRequestMethod("DELETE");
            c.getResponseCode();
            c.disconnect();
        } catch (IOException ignored) {
            // best effort, as on S3
        }
    }

    @Override
    public String describe() {
        String what =
                cluster != null
                        ? "a MiniDFSCluster of Hadoop 3.3.6 (one NameNode and one DataNode in a JVM"
                                + " of their own, replication 1) started by the driver on 127.0.0.1"
                        : "the HDFS at " + root;
        return what
                + ", warehouse "
                + root
                + "/<run>/warehouse"
                + (counts != null
                        ? ", NameNode and DataNode counters read from the NameNode's /jmx"
                        : " (no --namenode-http: NameNode operations not counted)");
    }

    @Override
    public void close() throws IOException {
        if (counts != null) {
            counts.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }
}
