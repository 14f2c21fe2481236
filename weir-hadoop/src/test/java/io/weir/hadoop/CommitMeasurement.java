package io.weir.hadoop;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.commit.CommitRequest;
import io.weir.commit.FileCommitLog;
import io.weir.hadoop.testing.HdfsCluster;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.options.StorageOptions;
import io.weir.options.TableOptions;
import io.weir.types.DataTypes;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Not a test: a measurement, run on demand (docs/hdfs.md has the figures). It times 1,000 small
 * commits (one log file each) and then loading the table, on local disk and on the MiniDFSCluster
 * (a NameNode and a DataNode in this JVM, over loopback: no network or disk of a real cluster).
 *
 * <pre>
 * ./mvnw -o -q -pl weir-hadoop test -Dtest=CommitMeasurement -Dweir.measure=true \
 *     -Dweir.skipCoreSuitesOnHdfs
 * </pre>
 */
@Tag("measurement")
@EnabledIfSystemProperty(named = "weir.measure", matches = "true")
class CommitMeasurement {
    private static final int COMMITS = 1000;
    private static final int LOADS = 5;

    @TempDir Path dir;

    @Test
    void commitsAndLoadsOnLocalDiskAndHdfs() throws Exception {
        HdfsCluster cluster = HdfsCluster.get();
        StorageOptions hdfsOptions = StorageOptions.of(cluster.storageOptions());
        // a warm-up table on each, so that class loading and connections are not timed
        run("local (warm-up)", dir.resolve("warm").toString(), StorageOptions.none(), 50);
        run("hdfs (warm-up)", cluster.newLocation("warm"), hdfsOptions, 50);
        run("local", dir.resolve("t").toString(), StorageOptions.none(), COMMITS);
        run("hdfs", cluster.newLocation("t"), hdfsOptions, COMMITS);
        // with Hadoop's default first pause when a file is completed (see docs/hdfs.md)
        StorageOptions hadoopDefault =
                hdfsOptions.with(
                        Map.of("hadoop." + HadoopConfigurations.FOLLOWING_BLOCK_DELAY, "400"));
        run("hdfs (400 ms)", cluster.newLocation("t"), hadoopDefault, COMMITS);
    }

    private static void run(String name, String location, StorageOptions options, int commits) {
        FileIO io = FileIOs.forLocation(location, options);
        FileCommitLog log = FileCommitLog.create(io, location, metadata());
        long start = System.nanoTime();
        for (int i = 0; i < commits; i++) {
            log.commit(CommitRequest.append(List.of(logFile(i))));
        }
        long commitNanos = System.nanoTime() - start;
        long[] loads = new long[LOADS];
        for (int i = 0; i < LOADS; i++) {
            long t = System.nanoTime();
            FileCommitLog loaded = FileCommitLog.load(io, location);
            if (loaded.current().commitId() != commits) {
                throw new AssertionError(name + ": loaded " + loaded.current().commitId());
            }
            loads[i] = System.nanoTime() - t;
        }
        Arrays.sort(loads);
        System.out.printf(
                "MEASURE %-16s %4d commits in %6.0f ms (%5.2f ms per commit); load: median %5.1f"
                        + " ms, min %5.1f ms of %d%n",
                name,
                commits,
                commitNanos / 1e6,
                commitNanos / 1e6 / commits,
                loads[LOADS / 2] / 1e6,
                loads[0] / 1e6,
                LOADS);
    }

    private static TableMetadata metadata() {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.STRING())
                        .primaryKey("id", "dt")
                        .partitionKeys("dt")
                        .build();
        return new TableMetadata(0, schema, TableOptions.of(Map.of("bucket", "4")), 1_000L);
    }

    private static DataFile logFile(int i) {
        String dt = "2024-11-" + (10 + i % 10);
        int bucket = i % 4;
        return new DataFile(
                "dt=" + dt + "/bucket-" + bucket + "/log-" + i + ".wlog",
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
}
