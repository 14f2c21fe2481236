package io.weir.flink.sink;

import io.weir.ColumnStats;
import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Partition;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Data file descriptors for tests that do not need real files. */
public final class TestFiles {
    private TestFiles() {}

    public static DataFile log(String path, Partition partition, int bucket, long records) {
        return new DataFile(
                path,
                FileKind.LOG,
                partition,
                bucket,
                records,
                records * 40,
                -1,
                0,
                List.of("1"),
                List.of("9"),
                null);
    }

    /** A file with everything set, including statistics and a null partition value. */
    public static DataFile full(int n) {
        return new DataFile(
                "dt=__DEFAULT_PARTITION__/x=" + n + "/bucket-3/base-" + n + ".parquet",
                FileKind.BASE,
                new Partition(Arrays.asList(null, "é" + n)),
                3,
                1000 + n,
                123_456,
                42,
                1,
                List.of("1", "a"),
                List.of("99", "z"),
                Map.of(0, new ColumnStats("1", "99", 0), 2, new ColumnStats(null, null, 7)));
    }
}
