package io.weir.hadoop;

import io.weir.hadoop.testing.HdfsCluster;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.options.StorageOptions;

import java.util.Map;

/**
 * The FileIO contract on {@code viewfs://}: a mount table, given as {@code hadoop.*} options, that
 * mounts {@code /lake} from the cluster.
 */
class ViewFsFileIOTest extends FileIOContractTest {
    private static final String MOUNTED = unique();

    @Override
    protected FileIO io() {
        return FileIOs.forLocation("viewfs://weir/", options());
    }

    static StorageOptions options() {
        return HdfsFileIOTest.options()
                .with(
                        Map.of(
                                "hadoop.fs.viewfs.mounttable.weir.link./lake",
                                HdfsCluster.get().uri() + "/" + MOUNTED));
    }

    @Override
    protected String freshLocation() {
        return "viewfs://weir/lake/" + unique() + "/contract";
    }
}
