package io.weir.flink.cluster;

import io.weir.DataFile;
import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.packaging.FlinkDistribution;
import io.weir.testing.Rows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failover soak on a real Flink session cluster (1.20, or 2.3 in weir-flink-2) of separate JVMs
 * ({@link StandaloneFlinkCluster}): a streaming upsert job (an aggregate per key, so its sink gets
 * updates) and an append job write two Weir tables with in-job compaction and snapshot expiry on,
 * while a driver {@code kill -9}s TaskManagers at random times (one, two at once, or the one
 * running a committer) and starts replacements, and stops the JobManager and restores both jobs
 * from their latest retained checkpoints with {@code -s}, as an operator without HA would. At the
 * end both tables equal an independent model of the deterministic input exactly, and after a clean
 * (expire all but the latest snapshot, remove orphans) the table directories hold exactly the
 * latest snapshot's files.
 *
 * <p>By default a smoke: two kills, one of them the committer's TaskManager. With {@code
 * -Dweir.soak=true} the long run (docs/testing.md): {@code weir.soak.kills} kills (default 20),
 * {@code weir.soak.jm-restarts} JobManager restarts (default 2), {@code weir.soak.rows} rows per
 * job, seed {@code weir.soak.seed}.
 */
class FailoverSoakIT {
    private static final boolean LONG = Boolean.getBoolean("weir.soak");
    private static final int KILLS = Integer.getInteger("weir.soak.kills", LONG ? 20 : 2);
    private static final int JM_RESTARTS =
            Integer.getInteger("weir.soak.jm-restarts", LONG ? 2 : 0);

    /**
     * At {@code RATE} rows/s the jobs must outlast the kills: Flink 2.3 recovers from a lost
     * TaskManager within seconds, and 20 s of input ran out before the smoke's second kill there.
     */
    private static final long ROWS = Long.getLong("weir.soak.rows", LONG ? 600_000 : 60_000);

    private static final int RATE = Integer.getInteger("weir.soak.rate", 1000);
    private static final int TASK_MANAGERS = LONG ? 3 : 2;
    private static final long SEED = Long.getLong("weir.soak.seed", System.nanoTime());

    /** Keys of the upsert table: id % KEYS. */
    private static final int KEYS = 1000;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    /** {@link SqlJobSubmitter}'s classes alone, the client JVM's addition to Flink's classpath. */
    private Path clientClasses;

    /** One of the two jobs: its script, and its current Flink job id (new after a restore). */
    private static final class Job {
        final String name;
        final Path script;
        String id;

        Job(String name, Path script) {
            this.name = name;
            this.script = script;
        }
    }

    @Test
    void tablesExactAfterKillsAndRestores(TestReporter reporter) throws Exception {
        Path connectorJar = FlinkDistribution.connectorJar();
        clientClasses = dir.resolve("client");
        FlinkDistribution.copyClasses(SqlJobSubmitter.class, clientClasses);
        List<String> classpath = new ArrayList<>(FlinkDistribution.jars(connectorJar));
        // Weir in lib/, first: its unrelocated lz4-java and snappy-java are newer than Flink's (a
        // distribution sorts flink-dist, which bundles the old ones, last for the same reason).
        classpath.add(0, connectorJar.toString());
        Path upsertTable = dir.resolve("tables/totals");
        Path appendTable = dir.resolve("tables/events");
        Random random = new Random(SEED);
        long start = System.nanoTime();
        // What happened when, printed as it happens (a failed run shows how far it got).
        Events events = new Events(start);
        int kills = 0;
        int killedProcesses = 0;
        int committerKills = 0;
        int restores = 0;
        try (StandaloneFlinkCluster cluster =
                new StandaloneFlinkCluster(dir.resolve("flink"), classpath, Map.of())) {
            Job upsert = new Job("upsert", dir.resolve("upsert.sql"));
            Job append = new Job("append", dir.resolve("append.sql"));
            Files.writeString(upsert.script, upsertScript(upsertTable));
            Files.writeString(append.script, appendScript(appendTable));
            List<Job> jobs = List.of(upsert, append);

            cluster.start(TASK_MANAGERS);
            events.add("cluster up");
            submit(cluster, jobs, Map.of());
            awaitRunning(cluster, jobs);
            events.add("jobs running");

            // Spread the JobManager restarts over the kills.
            Set<Integer> restartAfter = new TreeSet<>();
            for (int r = 1; r <= JM_RESTARTS; r++) {
                restartAfter.add(r * KILLS / (JM_RESTARTS + 1));
            }
            while (kills < KILLS) {
                // A random time after the jobs run again: sometimes before their next checkpoint,
                // sometimes after a few.
                Thread.sleep(1000 + random.nextInt(LONG ? 4000 : 2000));
                assertJobsRunning(cluster, jobs, kills);
                List<String> victims = new ArrayList<>();
                List<String> tms = cluster.taskManagers();
                int choice = kills == 0 ? 0 : random.nextInt(4);
                if (choice == 0) {
                    // A TaskManager running a subtask of a job's committer.
                    Job job = jobs.get(random.nextInt(jobs.size()));
                    List<String> committers = cluster.taskManagersOf(job.id, "Committer");
                    assertThat(committers).as("committer of the %s job", job.name).isNotEmpty();
                    victims.add(committers.get(random.nextInt(committers.size())));
                    committerKills++;
                } else if (choice == 1 && tms.size() > 1) {
                    java.util.Collections.shuffle(tms, random);
                    victims.addAll(tms.subList(0, 2));
                } else {
                    victims.add(tms.get(random.nextInt(tms.size())));
                }
                for (String tm : victims) {
                    cluster.killTaskManager(tm);
                }
                kills++;
                killedProcesses += victims.size();
                events.add("kill -9 " + victims);
                for (int i = 0; i < victims.size(); i++) {
                    cluster.startTaskManager();
                }
                awaitRunning(cluster, jobs);
                if (restartAfter.contains(kills)) {
                    boolean hard = restores % 2 == 1;
                    cluster.stopJobManager(hard);
                    Map<Job, Path> checkpoints = new LinkedHashMap<>();
                    for (Job job : jobs) {
                        Path cp = cluster.latestCheckpoint(job.id);
                        assertThat(cp)
                                .as("retained checkpoint of the %s job", job.name)
                                .isNotNull();
                        checkpoints.put(job, cp);
                    }
                    cluster.startJobManager();
                    cluster.awaitTaskManagers(TASK_MANAGERS);
                    submit(cluster, jobs, checkpoints);
                    restores++;
                    events.add(
                            String.format(
                                    "JobManager %s, jobs restored from %s",
                                    hard ? "kill -9" : "stopped",
                                    checkpoints.values().stream()
                                            .map(p -> p.getFileName().toString())
                                            .toList()));
                    awaitRunning(cluster, jobs);
                }
            }
            for (Job job : jobs) {
                StandaloneFlinkCluster.waitFor(
                        Duration.ofMinutes(LONG ? 30 : 5),
                        "the " + job.name + " job to finish",
                        () -> {
                            String status = cluster.jobStatus(job.id);
                            if (status != null && status.equals("FAILED")) {
                                throw new AssertionError(
                                        "the " + job.name + " job failed: " + logs(cluster));
                            }
                            return "FINISHED".equals(status);
                        });
            }
        }
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;

        List<List<Object>> totals = read(upsertTable);
        List<List<Object>> eventsRead = read(appendTable);
        assertExact("totals (upsert)", totals, upsertModel());
        assertExact("events (append)", eventsRead, appendModel());

        // 'clean': expire every snapshot but the latest, then remove orphans (no write is in
        // flight, so every unreferenced file is one). The directories then hold exactly the
        // latest snapshot's files, and the tables read the same.
        for (Path location : List.of(upsertTable, appendTable)) {
            Table table = Tables.load(location.toString());
            table.expireSnapshots()
                    .retainLast(1)
                    .expireOlderThan(System.currentTimeMillis())
                    .commit();
            // The writers of killed TaskManagers (and the last hand-over of finished ones) left
            // writer leases, which would keep their files for an hour (docs/table-services.md,
            // "Writer leases"); no write is in flight, so they are released first.
            table.writerLeases().list().forEach(l -> table.writerLeases().release(l.writerId()));
            table.removeOrphanFiles().olderThan(System.currentTimeMillis() + 1).execute();
            table.refresh();
            Set<String> live =
                    table.currentSnapshot().files().stream()
                            .map(DataFile::path)
                            .collect(Collectors.toCollection(TreeSet::new));
            assertThat(dataFiles(location)).as("files of %s after clean", location).isEqualTo(live);
        }
        assertExact("totals after clean", read(upsertTable), upsertModel());
        assertExact("events after clean", read(appendTable), appendModel());

        String summary =
                String.format(
                        "seed %d: %d kills survived (%d TaskManager processes, %d of a committer's"
                                + " TaskManager), %d JobManager restarts restored with -s;"
                                + " rows checked: %d keys of the upsert table from %d input rows,"
                                + " %d rows of the append table; %d s",
                        SEED,
                        kills,
                        killedProcesses,
                        committerKills,
                        restores,
                        totals.size(),
                        ROWS,
                        eventsRead.size(),
                        seconds);
        System.out.println("FailoverSoakIT " + summary);
        reporter.publishEntry("soak", summary);
        assertThat(kills).isEqualTo(KILLS);
        assertThat(restores).isEqualTo(JM_RESTARTS);
    }

    /** Prints each event with the seconds since the start. */
    private static final class Events {
        private final long start;

        Events(long start) {
            this.start = start;
        }

        void add(String event) {
            System.out.printf(
                    "FailoverSoakIT %.0fs %s%n", (System.nanoTime() - start) / 1e9, event);
        }
    }

    private static String upsertScript(Path table) {
        return source()
                + "CREATE TABLE totals (k BIGINT, cnt BIGINT, total BIGINT, last_id BIGINT,"
                + " PRIMARY KEY (k) NOT ENFORCED) WITH ("
                + weirOptions(table, 4)
                + ");\n"
                + "INSERT INTO totals SELECT MOD(id, "
                + KEYS
                + "), COUNT(*), SUM(id), MAX(id) FROM src GROUP BY MOD(id, "
                + KEYS
                + ");\n";
    }

    private static String appendScript(Path table) {
        return source()
                + "CREATE TABLE events (id BIGINT, k BIGINT, payload STRING) WITH ("
                + weirOptions(table, 2)
                + ");\n"
                + "INSERT INTO events SELECT id, MOD(id, 97), CONCAT('row-', CAST(id AS STRING))"
                + " FROM src;\n";
    }

    /** The deterministic input: ids 0 .. ROWS - 1, checkpointed by the datagen source. */
    private static String source() {
        return "CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'datagen',"
                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '"
                + (ROWS - 1)
                + "', 'rows-per-second' = '"
                + RATE
                + "');\n";
    }

    /** In-job compaction as soon as a group has 2 logs, and in-job snapshot expiry. */
    private static String weirOptions(Path table, int buckets) {
        return "'connector' = 'weir', 'path' = '"
                + table
                + "', 'bucket' = '"
                + buckets
                + "', 'write-buffer-size' = '8 mb', 'compaction.max-log-files' = '2',"
                + " 'snapshot.expire.in-job' = 'true', 'snapshot.num-retained.min' = '3',"
                + " 'snapshot.time-retained' = '1 s'";
    }

    /** For each key k: the count, sum and greatest of the ids i with i % KEYS == k. */
    private static List<List<Object>> upsertModel() {
        Map<Long, long[]> totals = new HashMap<>();
        for (long i = 0; i < ROWS; i++) {
            long[] t = totals.computeIfAbsent(i % KEYS, k -> new long[3]);
            t[0]++;
            t[1] += i;
            t[2] = Math.max(t[2], i);
        }
        List<List<Object>> rows = new ArrayList<>();
        totals.forEach((k, t) -> rows.add(List.of(k, t[0], t[1], t[2])));
        return sorted(rows);
    }

    private static List<List<Object>> appendModel() {
        List<List<Object>> rows = new ArrayList<>();
        for (long i = 0; i < ROWS; i++) {
            rows.add(List.of(i, i % 97, "row-" + i));
        }
        return rows;
    }

    private static List<List<Object>> read(Path location) {
        Table table = Tables.load(location.toString());
        return sorted(Rows.readAll(table.newScan().rows(), table.schema().rowType(), false));
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(r -> (Long) r.get(0)));
        return copy;
    }

    /** Equal row by row; on a difference, says which ids are lost, duplicated or wrong. */
    private static void assertExact(
            String what, List<List<Object>> actual, List<List<Object>> expected) {
        if (actual.equals(expected)) {
            return;
        }
        Map<Object, Long> counts =
                actual.stream()
                        .collect(Collectors.groupingBy(r -> r.get(0), Collectors.counting()));
        List<Object> duplicated =
                counts.entrySet().stream()
                        .filter(e -> e.getValue() > 1)
                        .map(Map.Entry::getKey)
                        .limit(20)
                        .toList();
        List<Object> lost =
                expected.stream()
                        .map(r -> r.get(0))
                        .filter(id -> !counts.containsKey(id))
                        .limit(20)
                        .toList();
        Set<List<Object>> expectedSet = new java.util.HashSet<>(expected);
        List<List<Object>> wrong =
                actual.stream().filter(r -> !expectedSet.contains(r)).limit(20).toList();
        throw new AssertionError(
                String.format(
                        "%s: %d rows, expected %d; duplicated ids %s; lost ids %s; rows not in the"
                                + " model %s",
                        what, actual.size(), expected.size(), duplicated, lost, wrong));
    }

    /** The table's data files (paths relative to it), leaving out its metadata directory. */
    private static Set<String> dataFiles(Path location) throws IOException {
        try (Stream<Path> files = Files.walk(location)) {
            return files.filter(Files::isRegularFile)
                    .map(p -> location.relativize(p).toString().replace(File.separatorChar, '/'))
                    .filter(p -> !p.startsWith("_weir/"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** Submits the jobs in one client JVM, each restored from its checkpoint if one is given. */
    private void submit(StandaloneFlinkCluster cluster, List<Job> jobs, Map<Job, Path> checkpoints)
            throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(StandaloneFlinkCluster.javaBin());
        cmd.add("-Xmx512m");
        cmd.addAll(StandaloneFlinkCluster.JAVA_OPTS);
        cmd.add("-classpath");
        cmd.add(cluster.classpath() + File.pathSeparator + clientClasses);
        cmd.add(SqlJobSubmitter.class.getName());
        for (Job job : jobs) {
            cmd.add(job.script.toString());
            Path checkpoint = checkpoints.get(job);
            cmd.add(checkpoint == null ? "-" : checkpoint.toString());
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("FLINK_CONF_DIR", cluster.confDir().toString());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).as("client exits").isTrue();
        assertThat(p.exitValue()).as("client output:\n%s", output).isZero();
        for (Job job : jobs) {
            String prefix = "Job ID: " + job.script + " ";
            job.id =
                    output.lines()
                            .filter(l -> l.startsWith(prefix))
                            .map(l -> l.substring(prefix.length()).strip())
                            .findFirst()
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    "no job id of "
                                                            + job.name
                                                            + " in the client's output:\n"
                                                            + output));
        }
    }

    /** Waits until every task of both jobs runs (a job that finished counts as recovered). */
    private static void awaitRunning(StandaloneFlinkCluster cluster, List<Job> jobs)
            throws Exception {
        for (Job job : jobs) {
            StandaloneFlinkCluster.waitFor(
                    Duration.ofMinutes(3),
                    "all tasks of the " + job.name + " job to run",
                    () -> {
                        String status = cluster.jobStatus(job.id);
                        if ("FAILED".equals(status)) {
                            throw new AssertionError(
                                    "the " + job.name + " job failed: " + logs(cluster));
                        }
                        return "FINISHED".equals(status) || cluster.allTasksRunning(job.id);
                    });
        }
    }

    private static void assertJobsRunning(
            StandaloneFlinkCluster cluster, List<Job> jobs, int kills) {
        for (Job job : jobs) {
            assertThat(cluster.jobStatus(job.id))
                    .as(
                            "the %s job after %d kills: still running (raise weir.soak.rows if it"
                                    + " finished)",
                            job.name, kills)
                    .isEqualTo("RUNNING");
        }
    }

    private static String logs(StandaloneFlinkCluster cluster) {
        return "see the logs in " + cluster.logDir();
    }
}
