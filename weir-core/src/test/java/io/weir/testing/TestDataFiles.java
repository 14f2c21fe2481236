package io.weir.testing;

import io.weir.ColumnStats;
import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.options.TableOptions;
import io.weir.types.DataTypes;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Sample schemas and data files for commit tests. */
public final class TestDataFiles {
    private static final AtomicLong COUNTER = new AtomicLong();

    private TestDataFiles() {}

    public static Schema schema() {
        return Schema.builder()
                .column("id", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING(), "event day")
                .column("amount", DataTypes.DECIMAL(10, 2))
                .column("at", DataTypes.TIMESTAMP(3))
                .primaryKey("id", "dt")
                .partitionKeys("dt")
                .build();
    }

    public static TableMetadata metadata(Map<String, String> options) {
        return new TableMetadata(0, schema(), TableOptions.of(options), 1_000L);
    }

    /** A new log file (sequence unassigned) in partition {@code dt}, bucket {@code bucket}. */
    public static DataFile log(String dt, int bucket) {
        return new DataFile(
                "dt=" + dt + "/bucket-" + bucket + "/log-" + COUNTER.incrementAndGet() + ".wlog",
                FileKind.LOG,
                Partition.of(dt),
                bucket,
                10,
                1000,
                -1,
                0,
                List.of("1", dt),
                List.of("9", dt),
                null);
    }

    /** A compacted base file with the given sequence and column statistics. */
    public static DataFile base(String dt, int bucket, long sequence) {
        return new DataFile(
                "dt="
                        + dt
                        + "/bucket-"
                        + bucket
                        + "/base-"
                        + COUNTER.incrementAndGet()
                        + ".parquet",
                FileKind.BASE,
                Partition.of(dt),
                bucket,
                100,
                50_000,
                sequence,
                0,
                List.of("1", dt),
                List.of("99", dt),
                Map.of(
                        0, new ColumnStats("1", "99", 0),
                        2, new ColumnStats("0.50", "12.25", 3),
                        3, new ColumnStats(null, null, 100)));
    }
}
