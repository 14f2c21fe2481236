package io.weir.flink.lookup;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * One run of the lookup-join benchmark in its own JVM (run by {@link LookupJoinBenchTest}): loads a
 * dimension table of {@code rows} rows into Weir or Paimon with Flink SQL, then joins {@code
 * probes} random keys with it in a streaming job (datagen to blackhole) and prints one line: {@code
 * RESULT system join rows probes seconds lookups/s peakRssMiB liveHeapMiB peakDiskMiB loadSeconds}.
 *
 * <p>Arguments: {@code weir|paimon pk|nonkey workDir rows probes parallelism}. {@code pk} joins on
 * the primary key; {@code nonkey} on a unique column outside it ({@code v = id * 7}).
 */
public final class LookupJoinBench {
    private LookupJoinBench() {}

    public static void main(String[] args) throws Exception {
        String system = args[0];
        String join = args[1];
        Path work = Path.of(args[2]);
        long rows = Long.parseLong(args[3]);
        long probes = Long.parseLong(args[4]);
        int parallelism = Integer.parseInt(args[5]);
        Path tmp = Files.createDirectories(work.resolve("tmp"));
        Configuration conf = new Configuration();
        conf.set(CoreOptions.TMP_DIRS, tmp.toString());
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, parallelism);
        conf.set(RestOptions.BIND_PORT, "0");

        StreamExecutionEnvironment batchEnv =
                StreamExecutionEnvironment.getExecutionEnvironment(conf);
        batchEnv.setParallelism(parallelism);
        TableEnvironment batch =
                StreamTableEnvironment.create(batchEnv, EnvironmentSettings.inBatchMode());
        String dim = createDim(batch, system, work, tmp);
        long loadStart = System.nanoTime();
        batch.executeSql(
                        "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                                + " 'fields.id.end' = '"
                                + (rows - 1)
                                + "', 'number-of-rows' = '"
                                + rows
                                + "')")
                .await();
        batch.executeSql(
                        "INSERT INTO "
                                + dim
                                + " SELECT id, CONCAT('customer-', CAST(id AS STRING)), CASE"
                                + " MOD(id, 4) WHEN 0 THEN 'DE' WHEN 1 THEN 'FR' WHEN 2 THEN"
                                + " 'US' ELSE 'JP' END, id * 7 FROM gen")
                .await();
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        StreamTableEnvironment sql = StreamTableEnvironment.create(env);
        createDim(sql, system, work, tmp);
        sql.executeSql(
                "CREATE TEMPORARY TABLE probes (cid BIGINT, vkey AS cid * 7,"
                        + " proc_time AS PROCTIME()) WITH ('connector' = 'datagen',"
                        + " 'number-of-rows' = '"
                        + probes
                        + "', 'rows-per-second' = '1000000000', 'fields.cid.min' = '0',"
                        + " 'fields.cid.max' = '"
                        + (rows + rows / 4)
                        + "')");
        sql.executeSql(
                "CREATE TEMPORARY TABLE out_t (cid BIGINT, name STRING, v BIGINT)"
                        + " WITH ('connector' = 'blackhole')");
        String on = join.equals("pk") ? "p.cid = d.id" : "p.vkey = d.v";
        Sampler sampler = new Sampler(tmp);
        sampler.start();
        long start = System.nanoTime();
        sql.executeSql(
                        "INSERT INTO out_t SELECT p.cid, d.name, d.v FROM probes AS p JOIN "
                                + dim
                                + " FOR SYSTEM_TIME AS OF p.proc_time AS d ON "
                                + on)
                .await();
        double seconds = (System.nanoTime() - start) / 1e9;
        sampler.interrupt();
        sampler.join();
        System.out.println(
                String.format(
                        Locale.ROOT,
                        "RESULT %s %s %d %d %.1f %.0f %.0f %.0f %.0f %.1f",
                        system,
                        join,
                        rows,
                        probes,
                        seconds,
                        probes / seconds,
                        sampler.rss.get() / 1048576.0,
                        sampler.heap.get() / 1048576.0,
                        sampler.disk.get() / 1048576.0,
                        loadSeconds));
        System.exit(0);
    }

    /** Creates the dimension table (in Weir or in a Paimon catalog) and returns its name. */
    private static String createDim(TableEnvironment env, String system, Path work, Path tmp) {
        String columns =
                "(id BIGINT NOT NULL, name STRING, country STRING, v BIGINT,"
                        + " PRIMARY KEY (id) NOT ENFORCED)";
        if (system.equals("weir")) {
            env.executeSql(
                    "CREATE TABLE IF NOT EXISTS dim "
                            + columns
                            + " WITH ('connector' = 'weir', 'path' = '"
                            + work.resolve("weir-dim")
                            + "', 'bucket' = '4', 'lookup.local-dir' = '"
                            + tmp
                            + "')");
            return "dim";
        }
        env.executeSql(
                "CREATE CATALOG p WITH ('type' = 'paimon', 'warehouse' = 'file://"
                        + work.resolve("paimon")
                        + "')");
        env.executeSql(
                "CREATE TABLE IF NOT EXISTS p.`default`.dim " + columns + " WITH ('bucket' = '4')");
        return "p.`default`.dim";
    }

    /**
     * Samples the process's resident memory and local disk every 200 ms, and the live heap (after a
     * full GC) every 2 s.
     */
    private static final class Sampler extends Thread {
        final AtomicLong rss = new AtomicLong();
        final AtomicLong heap = new AtomicLong();
        final AtomicLong disk = new AtomicLong();
        private final Path dir;

        Sampler(Path dir) {
            this.dir = dir;
            setDaemon(true);
        }

        @Override
        public void run() {
            while (!isInterrupted()) {
                sample();
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    break;
                }
            }
            sample();
        }

        private int samples;

        private void sample() {
            if (samples++ % 10 == 5) {
                System.gc();
                heap.accumulateAndGet(
                        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
                        Math::max);
            }
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                        rss.accumulateAndGet(kb * 1024, Math::max);
                    }
                }
                try (Stream<Path> files = Files.walk(dir)) {
                    long bytes =
                            files.filter(Files::isRegularFile)
                                    .mapToLong(
                                            p -> {
                                                try {
                                                    return Files.size(p);
                                                } catch (IOException e) {
                                                    return 0L;
                                                }
                                            })
                                    .sum();
                    disk.accumulateAndGet(bytes, Math::max);
                }
            } catch (IOException | RuntimeException e) {
                // a file vanished mid-walk: keep the other samples
            }
        }
    }
}
