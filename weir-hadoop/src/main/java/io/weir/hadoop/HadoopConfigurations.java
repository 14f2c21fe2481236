package io.weir.hadoop;

import io.weir.options.StorageOptions;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.viewfs.ViewFileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.web.SWebHdfsFileSystem;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;

import java.net.MalformedURLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Builds the Hadoop {@link Configuration} of a set of storage options, in the order a Hadoop client
 * reads its settings: the defaults on the classpath ({@code core-default.xml}, {@code
 * hdfs-default.xml}, and any {@code core-site.xml}/{@code hdfs-site.xml} there), then {@code
 * core-site.xml} and {@code hdfs-site.xml} of {@code HADOOP_CONF_DIR}, then the {@code hadoop.*}
 * storage options, which win.
 */
public final class HadoopConfigurations {
    /** The environment variable naming the directory of a cluster's client configuration. */
    public static final String HADOOP_CONF_DIR = "HADOOP_CONF_DIR";

    private HadoopConfigurations() {}

    /** The configuration of {@code options}, with {@code HADOOP_CONF_DIR} from the environment. */
    public static Configuration of(StorageOptions options) {
        return of(options, System.getenv());
    }

    /**
     * The configuration of {@code options}, with {@code HADOOP_CONF_DIR} from {@code env}.
     *
     * @throws IllegalArgumentException if {@code HADOOP_CONF_DIR} is set but is not a directory
     */
    public static Configuration of(StorageOptions options, Map<String, String> env) {
        // HdfsConfiguration registers hdfs-default.xml and hdfs-site.xml as default resources,
        // as DistributedFileSystem would on first use.
        Configuration conf = new HdfsConfiguration();
        // Hadoop finds classes named in the configuration through this loader: ours, which also
        // holds the HDFS client when both are relocated into a connector jar.
        conf.setClassLoader(HadoopConfigurations.class.getClassLoader());
        String confDir = env.get(HADOOP_CONF_DIR);
        if (confDir != null && !confDir.isBlank()) {
            addConfDir(conf, Path.of(confDir));
        }
        // Named by class, not by string: the names stay right when the connector jar relocates
        // Hadoop, and the file systems are found without the service files or core-default.xml
        // (which the connector jar leaves out). Settings of the site files or options win.
        setIfUnset(conf, "fs.hdfs.impl", DistributedFileSystem.class.getName());
        setIfUnset(conf, "fs.viewfs.impl", ViewFileSystem.class.getName());
        setIfUnset(conf, "fs.webhdfs.impl", WebHdfsFileSystem.class.getName());
        setIfUnset(conf, "fs.swebhdfs.impl", SWebHdfsFileSystem.class.getName());
        // Closing a file waits until the NameNode has the last block's replica report: the
        // client asks, and if the report is not in yet, asks again after 400 ms by default,
        // doubling. Every commit closes two small files (the commit, the LATEST hint), so that
        // first pause alone made commits on a MiniDFSCluster take about 470 ms instead of about
        // 90 ms (docs/hdfs.md). Weir asks again after 20 ms, with more retries so that the total
        // wait before giving up stays about as long (20 s rather than 12 s).
        setUnlessConfigured(conf, FOLLOWING_BLOCK_DELAY, "20");
        setUnlessConfigured(conf, FOLLOWING_BLOCK_RETRIES, "10");
        options.hadoopConfiguration().forEach(conf::set);
        return conf;
    }

    /** The first pause of a client before it asks the NameNode again to complete a file. */
    static final String FOLLOWING_BLOCK_DELAY =
            "dfs.client.block.write.locateFollowingBlock.initial.delay.ms";

    static final String FOLLOWING_BLOCK_RETRIES =
            "dfs.client.block.write.locateFollowingBlock.retries";

    /**
     * Sets a default of Weir's unless a site file (or code) set the key: Hadoop's defaults lose.
     */
    private static void setUnlessConfigured(Configuration conf, String key, String value) {
        String[] sources = conf.getPropertySources(key);
        boolean configured = false;
        if (sources != null) {
            for (String source : sources) {
                if (!source.endsWith("-default.xml")) {
                    configured = true;
                }
            }
        }
        if (!configured) {
            conf.set(key, value, "weir");
        }
    }

    private static void addConfDir(Configuration conf, Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(
                    HADOOP_CONF_DIR
                            + "="
                            + dir
                            + " is not a directory; it should name the directory that holds the"
                            + " cluster's core-site.xml and hdfs-site.xml");
        }
        for (String name : new String[] {"core-site.xml", "hdfs-site.xml"}) {
            Path file = dir.resolve(name);
            if (Files.isRegularFile(file)) {
                try {
                    conf.addResource(file.toUri().toURL());
                } catch (MalformedURLException e) {
                    throw new IllegalArgumentException("Cannot read " + file, e);
                }
            }
        }
    }

    private static void setIfUnset(Configuration conf, String key, String value) {
        if (conf.get(key) == null) {
            conf.set(key, value);
        }
    }
}
