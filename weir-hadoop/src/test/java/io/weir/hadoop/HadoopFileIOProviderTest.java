package io.weir.hadoop;

import io.weir.hadoop.testing.HdfsCluster;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.io.PositionOutputStream;
import io.weir.options.StorageOptions;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The factory picks this file system by scheme, and the configuration comes out right. */
class HadoopFileIOProviderTest {

    @Test
    void servesTheHdfsSchemes() {
        StorageOptions options = StorageOptions.of(HdfsCluster.get().storageOptions());
        for (String location :
                new String[] {
                    "hdfs://namenode:8020/lake",
                    "HDFS://namenode:8020/lake",
                    "viewfs://cluster/lake",
                    "webhdfs://namenode:9870/lake",
                    "swebhdfs://namenode:9871/lake"
                }) {
            assertThat(FileIOs.forLocation(location, options)).isInstanceOf(HadoopFileIO.class);
        }
        // one instance per set of options, whatever the scheme
        assertThat(FileIOs.forLocation("hdfs://a:1/x", options))
                .isSameAs(FileIOs.forLocation("webhdfs://b:2/y", options));
    }

    @Test
    void eachSetOfOptionsHasItsOwnClientEvenOnOneNameNode() throws Exception {
        // Hadoop's FileSystem cache would hand the second set the first one's client (same
        // NameNode, same user) and so its block size; ours does not.
        HdfsCluster cluster = HdfsCluster.get();
        String dir = cluster.newLocation("blocksizes");
        FileIO small =
                FileIOs.forLocation(
                        dir,
                        StorageOptions.of(cluster.storageOptions())
                                .with(Map.of("hadoop.dfs.blocksize", "1048576")));
        FileIO large =
                FileIOs.forLocation(
                        dir,
                        StorageOptions.of(cluster.storageOptions())
                                .with(Map.of("hadoop.dfs.blocksize", "2097152")));
        for (FileIO io : new FileIO[] {small, large}) {
            try (PositionOutputStream out = io.newOutputFile(dir + "/" + io.hashCode()).create()) {
                out.write(1);
            }
        }
        HadoopFileIO probe = (HadoopFileIO) small;
        assertThat(blockSize(probe, dir + "/" + small.hashCode())).isEqualTo(1048576);
        assertThat(blockSize(probe, dir + "/" + large.hashCode())).isEqualTo(2097152);
    }

    private static long blockSize(HadoopFileIO io, String path) throws Exception {
        return io.fs(path, new Path(path)).getFileStatus(new Path(path)).getBlockSize();
    }

    @Test
    void readsHadoopConfDirAndOptionsWin(@TempDir java.nio.file.Path confDir) throws Exception {
        Files.writeString(
                confDir.resolve("core-site.xml"),
                site("fs.defaultFS", "hdfs://from-core-site:8020")
                        .replace(
                                "</configuration>",
                                prop("weir.test.a", "core") + "</configuration>"),
                StandardCharsets.UTF_8);
        Files.writeString(
                confDir.resolve("hdfs-site.xml"),
                site("dfs.nameservices", "lakecluster")
                        .replace(
                                "</configuration>",
                                prop("weir.test.a", "hdfs") + "</configuration>"),
                StandardCharsets.UTF_8);
        Configuration conf =
                HadoopConfigurations.of(
                        StorageOptions.of(Map.of("hadoop.dfs.replication", "2")),
                        Map.of(HadoopConfigurations.HADOOP_CONF_DIR, confDir.toString()));
        assertThat(conf.get("fs.defaultFS")).isEqualTo("hdfs://from-core-site:8020");
        assertThat(conf.get("dfs.nameservices")).isEqualTo("lakecluster");
        // hdfs-site.xml after core-site.xml, as Hadoop loads them
        assertThat(conf.get("weir.test.a")).isEqualTo("hdfs");
        assertThat(conf.get("dfs.replication")).isEqualTo("2");

        Configuration overridden =
                HadoopConfigurations.of(
                        StorageOptions.of(Map.of("hadoop.dfs.nameservices", "other")),
                        Map.of(HadoopConfigurations.HADOOP_CONF_DIR, confDir.toString()));
        assertThat(overridden.get("dfs.nameservices")).isEqualTo("other");

        // without HADOOP_CONF_DIR, the defaults only
        Configuration plain = HadoopConfigurations.of(StorageOptions.none(), Map.of());
        assertThat(plain.get("dfs.nameservices")).isNull();
        assertThat(plain.get(HadoopConfigurations.FOLLOWING_BLOCK_DELAY)).isEqualTo("20");
        assertThat(conf.get(HadoopConfigurations.FOLLOWING_BLOCK_DELAY)).isEqualTo("20");
        Configuration slowClose =
                HadoopConfigurations.of(
                        StorageOptions.of(
                                Map.of(
                                        "hadoop." + HadoopConfigurations.FOLLOWING_BLOCK_DELAY,
                                        "400")),
                        Map.of());
        assertThat(slowClose.get(HadoopConfigurations.FOLLOWING_BLOCK_DELAY)).isEqualTo("400");
        assertThat(plain.get("fs.hdfs.impl"))
                .isEqualTo(org.apache.hadoop.hdfs.DistributedFileSystem.class.getName());
    }

    @Test
    void aHadoopConfDirThatIsNoDirectoryIsRefused(@TempDir java.nio.file.Path tmp) {
        assertThatThrownBy(
                        () ->
                                HadoopConfigurations.of(
                                        StorageOptions.none(),
                                        Map.of(
                                                HadoopConfigurations.HADOOP_CONF_DIR,
                                                tmp.resolve("none").toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HADOOP_CONF_DIR=" + tmp.resolve("none"));
    }

    private static String site(String key, String value) {
        return "<?xml version=\"1.0\"?>\n<configuration>" + prop(key, value) + "</configuration>\n";
    }

    private static String prop(String key, String value) {
        return "<property><name>" + key + "</name><value>" + value + "</value></property>";
    }
}
