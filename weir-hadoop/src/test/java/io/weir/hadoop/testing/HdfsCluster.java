package io.weir.hadoop.testing;

import io.weir.hadoop.HadoopConfigurations;
import io.weir.options.StorageOptions;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * A real HDFS for tests: a NameNode and one DataNode ({@link MiniDFSCluster}) in this JVM, started
 * on first use and stopped when the JVM exits, so that every test class of a fork shares one
 * (starting one takes seconds). Its directories are under {@code target/hdfs-cluster/} of the
 * module that runs the tests. Published in weir-hadoop's test-jar for other modules' tests.
 *
 * <p>The NameNode listens on 127.0.0.1 with a free port for RPC ({@link #uri()}) and HTTP ({@link
 * #webHdfsUri()}). Permissions are checked; the JVM's user is the superuser.
 */
public final class HdfsCluster {
    private static HdfsCluster instance;

    private final MiniDFSCluster cluster;
    private final Path baseDir;

    private HdfsCluster(MiniDFSCluster cluster, Path baseDir) {
        this.cluster = cluster;
        this.baseDir = baseDir;
    }

    /** The cluster of this JVM, started on the first call. */
    public static synchronized HdfsCluster get() {
        if (instance == null) {
            instance = start();
        }
        return instance;
    }

    private static HdfsCluster start() {
        Path baseDir =
                Path.of("target", "hdfs-cluster", UUID.randomUUID().toString().substring(0, 8))
                        .toAbsolutePath();
        try {
            Files.createDirectories(baseDir);
            Configuration conf = new Configuration();
            conf.set("hadoop.tmp.dir", baseDir.resolve("tmp").toString());
            conf.set(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, "127.0.0.1");
            conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
            conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
            conf.setBoolean(DFSConfigKeys.DFS_PERMISSIONS_ENABLED_KEY, true);
            MiniDFSCluster cluster =
                    new MiniDFSCluster.Builder(conf, baseDir.resolve("dfs").toFile())
                            .numDataNodes(1)
                            .format(true)
                            .build();
            cluster.waitClusterUp();
            HdfsCluster started = new HdfsCluster(cluster, baseDir);
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(cluster::shutdown, "hdfs-cluster-shutdown"));
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start a MiniDFSCluster in " + baseDir, e);
        }
    }

    /** The NameNode's RPC port. */
    public int nameNodePort() {
        return cluster.getNameNodePort();
    }

    /** {@code hdfs://127.0.0.1:<port>}: the file system's root, without a trailing slash. */
    public String uri() {
        return "hdfs://127.0.0.1:" + nameNodePort();
    }

    /** {@code webhdfs://127.0.0.1:<http port>}: the same file system through WebHDFS. */
    public String webHdfsUri() {
        return "webhdfs://127.0.0.1:" + cluster.getNameNode().getHttpAddress().getPort();
    }

    /** A fresh directory's location, {@code hdfs://127.0.0.1:<port>/<unique>/<name>}. */
    public String newLocation(String name) {
        return uri() + "/" + UUID.randomUUID().toString().substring(0, 13) + "/" + name;
    }

    /**
     * The storage options of a client of this cluster: one replica per block, as it has one
     * DataNode.
     */
    public Map<String, String> storageOptions() {
        return Map.of(StorageOptions.HADOOP_PREFIX + DFSConfigKeys.DFS_REPLICATION_KEY, "1");
    }

    /** The Hadoop configuration a client gets from {@link #storageOptions()}. */
    public Configuration clientConfiguration() {
        return HadoopConfigurations.of(StorageOptions.of(storageOptions()), Map.of());
    }

    /** Where the cluster keeps its files on local disk. */
    public Path baseDir() {
        return baseDir;
    }

    /** The cluster itself, for tests that stop DataNodes or inspect the NameNode. */
    public MiniDFSCluster miniCluster() {
        return cluster;
    }
}
