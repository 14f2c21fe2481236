package io.weir.bench.e2e.hdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.File;

/**
 * The main class of the JVM in which {@code weir bench --warehouse hdfs} runs a real HDFS: Hadoop
 * 3.3.6's {@link MiniDFSCluster}, a NameNode and one DataNode (replication 1) in this JVM, on
 * 127.0.0.1 with free ports, its storage under the directory given as the one argument. Its
 * classpath is the {@code hdfs-cluster} set of bench-lib (docs/benchmark.md, "On HDFS").
 *
 * <p>When the cluster is up it prints one line, {@value #READY}{@code rpc=<port> http=<port>} (the
 * NameNode's RPC and HTTP ports), and runs until its standard input ends: the driver closes it to
 * stop the cluster, and a driver that dies closes it too.
 */
public final class MiniHdfsMain {
    /** Starts the line that says the cluster is up. */
    public static final String READY = "weir-bench-hdfs ";

    private MiniHdfsMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("Usage: MiniHdfsMain <storage directory>");
            System.exit(2);
        }
        File base = new File(args[0]);
        Configuration conf = new Configuration();
        conf.set("hadoop.tmp.dir", new File(base, "tmp").getAbsolutePath());
        conf.set(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, "127.0.0.1");
        conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
        conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
        MiniDFSCluster cluster =
                new MiniDFSCluster.Builder(conf, new File(base, "dfs"))
                        .numDataNodes(1)
                        .format(true)
                        .build();
        cluster.waitClusterUp();
        System.out.println(
                READY
                        + "rpc="
                        + cluster.getNameNodePort()
                        + " http="
                        + cluster.getNameNode().getHttpAddress().getPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the driver closes our standard input
        }
        cluster.shutdown();
        System.exit(0);
    }
}
