package io.weir.hadoop;

import io.weir.hadoop.testing.HdfsCluster;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.options.StorageOptions;

import java.util.Map;

/** The FileIO contract on {@code hdfs://}. */
class HdfsFileIOTest extends FileIOContractTest {
    @Override
    protected FileIO io() {
        return FileIOs.forLocation(HdfsCluster.get().uri(), options());
    }

    static StorageOptions options() {
        return StorageOptions.of(HdfsCluster.get().storageOptions())
                .with(Map.of("hadoop.dfs.blocksize", Integer.toString(BLOCK_SIZE)));
    }

    @Override
    protected String freshLocation() {
        return HdfsCluster.get().newLocation("contract");
    }
}
