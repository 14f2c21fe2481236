package io.weir.hadoop;

import io.weir.hadoop.testing.HdfsCluster;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;

/** The FileIO contract on {@code webhdfs://}: the same cluster through its REST gateway. */
class WebHdfsFileIOTest extends FileIOContractTest {
    @Override
    protected FileIO io() {
        return FileIOs.forLocation(HdfsCluster.get().webHdfsUri(), HdfsFileIOTest.options());
    }

    @Override
    protected String freshLocation() {
        return HdfsCluster.get().webHdfsUri() + "/" + unique() + "/contract";
    }
}
