package io.weir.hadoop.testing;

import io.weir.options.StorageOptions;
import io.weir.testing.TestStorage;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The "hdfs" {@link TestStorage}: tables on this JVM's {@link HdfsCluster}. Run the core's suites
 * on it with {@code -Dweir.test.storage=hdfs}. A test's {@code @TempDir} maps to a prefix of its
 * own, so that the same directory and name give the same location and two tests never share one.
 */
public final class HdfsTestStorage extends TestStorage {
    private final HdfsCluster cluster;
    private final StorageOptions options;
    private final Map<Path, String> prefixes = new ConcurrentHashMap<>();

    HdfsTestStorage(HdfsCluster cluster) {
        this.cluster = cluster;
        this.options = StorageOptions.of(cluster.storageOptions());
    }

    /** Found by {@link TestStorage#current()} through the service file. */
    public static final class Factory implements TestStorage.Factory {
        @Override
        public String name() {
            return "hdfs";
        }

        @Override
        public TestStorage start() {
            return new HdfsTestStorage(HdfsCluster.get());
        }
    }

    @Override
    public String name() {
        return "hdfs";
    }

    @Override
    public String location(Path localDir, String name) {
        String prefix = prefixes.computeIfAbsent(localDir.toAbsolutePath(), d -> unique());
        return cluster.uri() + "/" + prefix + "/" + name;
    }

    @Override
    public StorageOptions options() {
        return options;
    }
}
