package io.weir.hadoop;

import io.weir.io.FileIO;
import io.weir.io.FileIOProvider;
import io.weir.options.StorageOptions;

import java.util.Set;

/**
 * HDFS and its relatives: {@code hdfs:}, {@code viewfs:}, {@code webhdfs:}, {@code swebhdfs:}. The
 * Hadoop configuration is the classpath's defaults, {@code HADOOP_CONF_DIR}'s site files and the
 * {@code hadoop.*} storage options ({@link HadoopConfigurations}).
 */
public final class HadoopFileIOProvider implements FileIOProvider {
    @Override
    public Set<String> schemes() {
        return Set.of("hdfs", "viewfs", "webhdfs", "swebhdfs");
    }

    @Override
    public FileIO create(StorageOptions options) {
        return new HadoopFileIO(HadoopConfigurations.of(options));
    }
}
