package io.weir.hadoop;

import io.weir.hadoop.testing.HdfsCluster;
import io.weir.options.StorageOptions;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.AccessDeniedException;
import java.security.PrivilegedExceptionAction;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The errors a user meets first, each naming the path and what to do. */
class HadoopErrorsTest {

    @Test
    void permissionDeniedNamesThePathAndTheUser() throws Exception {
        HdfsCluster cluster = HdfsCluster.get();
        String dir = cluster.newLocation("private");
        HadoopFileIO owner = new HadoopFileIO(cluster.clientConfiguration());
        assertThat(owner.writeIfAbsent(dir + "/secret.json", new byte[] {1})).isTrue();
        FileSystem fs = owner.fs(dir, new Path(dir));
        fs.setPermission(new Path(dir), new FsPermission((short) 0700));

        UserGroupInformation alice = UserGroupInformation.createRemoteUser("alice");
        // the file system takes the user current when it is made: make it as alice
        HadoopFileIO asAlice =
                alice.doAs(
                        (PrivilegedExceptionAction<HadoopFileIO>)
                                () -> {
                                    HadoopFileIO io =
                                            new HadoopFileIO(cluster.clientConfiguration());
                                    io.fs(dir, new Path(dir));
                                    return io;
                                });
        assertThatThrownBy(() -> asAlice.readAllBytes(dir + "/secret.json"))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining(dir + "/secret.json")
                .hasMessageContaining("Permission denied")
                .hasMessageContaining("user=alice");
        assertThatThrownBy(() -> asAlice.writeIfAbsent(dir + "/other.json", new byte[] {2}))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining(dir + "/other.json");
        assertThatThrownBy(() -> asAlice.list(dir))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining(dir);
    }

    @Test
    void anUnreachableNameNodeIsNamedWithTheFix() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String location = "hdfs://127.0.0.1:" + port + "/lake/t";
        // no retries, so that the test does not wait for Hadoop's ten connection attempts
        HadoopFileIO io =
                new HadoopFileIO(
                        HadoopConfigurations.of(
                                StorageOptions.of(
                                        Map.of(
                                                "hadoop.ipc.client.connect.max.retries", "0",
                                                "hadoop.ipc.client.connect.retry.interval", "10")),
                                Map.of()));
        assertThatThrownBy(() -> io.readAllBytes(location + "/_weir/LATEST"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot reach the NameNode hdfs://127.0.0.1:" + port)
                .hasMessageContaining(location + "/_weir/LATEST")
                .hasMessageContaining("fs.defaultFS");
        assertThatThrownBy(() -> io.list(location))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot reach the NameNode");
    }

    @Test
    void anUnknownHostSaysHowToConfigureANameservice() {
        HadoopFileIO io =
                new HadoopFileIO(HadoopConfigurations.of(StorageOptions.none(), Map.of()));
        String location = "hdfs://no-such-namenode.invalid:8020/lake/t";
        assertThatThrownBy(() -> io.exists(location))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot resolve the NameNode host of " + location)
                .hasMessageContaining("HADOOP_CONF_DIR");
    }

    @Test
    void aLocationWithoutSchemeIsRefused() {
        HadoopFileIO io =
                new HadoopFileIO(HadoopConfigurations.of(StorageOptions.none(), Map.of()));
        assertThatThrownBy(() -> io.exists("/lake/t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/lake/t");
    }
}
