package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several processes on one table on local disk: two JVMs commit appends in tight loops (each commit
 * adds a row of its own, overwrites its own last-value row, and overwrites one row both write), and
 * a third JVM compacts and expires snapshots in a loop meanwhile, while this one watches the table.
 * Only the file system's create-if-absent orders the commits; a commit that loses the race is
 * retried. Every commit of every process must land exactly once: the commit ids the processes
 * report are exactly 1 to the latest, none twice, and the table's rows are what the commits, in the
 * order of their ids, make of it. (S3MultiProcessCommitTest in weir-aws is the same race on S3's
 * conditional PUT, without the third process.)
 *
 * <p>With {@code -Dweir.soak=true}: 2,000 commits per writer instead of 50.
 */
class MultiProcessCommitTest {
    private static final RowType TYPE = RowType.of("k", DataTypes.INT(), "v", DataTypes.BIGINT());
    private static final int COMMITS = Boolean.getBoolean("weir.soak") ? 2000 : 50;

    /**
     * The row both writers overwrite: its final value is that of the commit with the greatest id.
     */
    private static final int SHARED_KEY = 0;

    @TempDir Path dir;

    @Test
    void twoWritersAndAMaintainerLoseNoCommit(TestReporter reporter) throws Exception {
        String location = dir.resolve("t").toString();
        Tables.create(
                location,
                new Schema(TYPE, List.of("k"), List.of()),
                Map.of(
                        "bucket", "2",
                        "commit.max-retries", "100000",
                        "compaction.max-log-files", "3"));
        Path stop = dir.resolve("stop");
        long start = System.nanoTime();
        List<Process> writers = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (int p = 1; p <= 2; p++) {
            logs.add(dir.resolve("writer-" + p + ".log"));
            writers.add(start(logs.get(p - 1), Writer.class, location, Integer.toString(p)));
        }
        Path maintainerLog = dir.resolve("maintainer.log");
        Process maintainer = start(maintainerLog, Maintainer.class, location, stop.toString());

        Table watcher = Tables.load(location);
        long seen = 0;
        while (writers.stream().anyMatch(Process::isAlive)) {
            watcher.refresh();
            long latest = watcher.currentSnapshot().id();
            assertThat(latest).as("the latest commit never goes back").isGreaterThanOrEqualTo(seen);
            seen = latest;
            Thread.sleep(50);
        }
        Files.writeString(stop, "");
        List<String> outputs = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            outputs.add(await(writers.get(p), logs.get(p), "writer " + (p + 1)));
        }
        String maintained = await(maintainer, maintainerLog, "maintainer");

        // Commit ids as each process saw its commits land.
        Map<Long, String> byId = new TreeMap<>();
        int compactions = 0;
        int expiries = 0;
        for (String out : new ArrayList<>(List.of(outputs.get(0), outputs.get(1), maintained))) {
            for (String line : out.lines().toList()) {
                String[] f = line.split(" ");
                if (f[0].equals("COMMIT") || f[0].equals("COMPACT")) {
                    String previous = byId.put(Long.parseLong(f[1]), line);
                    assertThat(previous).as("commit id %s reported twice", f[1]).isNull();
                    compactions += f[0].equals("COMPACT") ? 1 : 0;
                } else if (f[0].equals("EXPIRED")) {
                    expiries++;
                }
            }
        }
        Table table = Tables.load(location);
        long latest = table.currentSnapshot().id();
        assertThat(byId.keySet())
                .as("every commit id from 1 to the latest is one process's commit")
                .isEqualTo(range(latest));
        assertThat(byId.values().stream().filter(l -> l.startsWith("COMMIT ")).count())
                .isEqualTo(2L * COMMITS);
        assertThat(compactions).as("compactions committed while the writers wrote").isPositive();

        // The model: each writer's own rows, its last-value row, and the shared row as written
        // by the commit with the greatest id.
        Map<Integer, Long> model = new TreeMap<>();
        for (int p = 1; p <= 2; p++) {
            for (int c = 1; c <= COMMITS; c++) {
                model.put(p * 1_000_000 + c, (long) c);
            }
            model.put(-p, (long) COMMITS);
        }
        String lastShared =
                byId.values().stream()
                        .filter(l -> l.startsWith("COMMIT "))
                        .reduce((a, b) -> b)
                        .orElseThrow();
        String[] f = lastShared.split(" ");
        model.put(SHARED_KEY, Long.parseLong(f[2]) * 1_000_000 + Long.parseLong(f[3]));
        List<List<Object>> rows = Rows.readAll(table.newScan().rows(), TYPE, false);
        rows.sort((a, b) -> Integer.compare((Integer) a.get(0), (Integer) b.get(0)));
        List<List<Object>> expected = new ArrayList<>();
        model.forEach((k, v) -> expected.add(List.of(k, v)));
        assertThat(rows).isEqualTo(expected);

        String summary =
                String.format(
                        "%d commits by 2 writers, %d compactions and %d expiry rounds by a third"
                                + " process, in %d ms; %d rows checked",
                        2 * COMMITS,
                        compactions,
                        expiries,
                        (System.nanoTime() - start) / 1_000_000,
                        rows.size());
        System.out.println("MultiProcessCommitTest: " + summary);
        reporter.publishEntry("processes", summary);
    }

    private static TreeSet<Long> range(long latest) {
        TreeSet<Long> ids = new TreeSet<>();
        for (long id = 1; id <= latest; id++) {
            ids.add(id);
        }
        return ids;
    }

    private static Process start(Path log, Class<?> main, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        cmd.add(Integer.toString(COMMITS));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static String await(Process process, Path log, String name) throws Exception {
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).as("%s exits", name).isTrue();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("%s exited; its output:%n%s", name, out).isZero();
        return out;
    }

    /**
     * A writer process: commits {@code n} appends in a tight loop as checkpoints 1 to n of writer
     * {@code p}, printing {@code COMMIT id p c} for each. Arguments: location, p, n.
     */
    public static final class Writer {
        private Writer() {}

        public static void main(String[] args) {
            String location = args[0];
            int p = Integer.parseInt(args[1]);
            int n = Integer.parseInt(args[2]);
            Table table = Tables.load(location);
            for (int c = 1; c <= n; c++) {
                List<DataFile> files;
                try (TableWrite write = table.newWrite().create()) {
                    write.write(BinaryRowWriter.toRow(TYPE, p * 1_000_000 + c, (long) c));
                    write.write(BinaryRowWriter.toRow(TYPE, -p, (long) c));
                    write.write(BinaryRowWriter.toRow(TYPE, SHARED_KEY, p * 1_000_000L + c));
                    files = write.prepareCommit();
                }
                CommitResult result =
                        table.newAppend().addFiles(files).identity("writer-" + p, c).commit();
                if (result.alreadyCommitted()) {
                    throw new AssertionError("checkpoint " + c + " committed before");
                }
                System.out.println("COMMIT " + result.commit().id() + " " + p + " " + c);
            }
            System.exit(0);
        }
    }

    /**
     * The maintenance process: until the stop file exists, compacts the file groups that are due
     * and expires all but the latest 3 snapshots, printing {@code COMPACT id} and {@code EXPIRED}.
     * Arguments: location, stop file.
     */
    public static final class Maintainer {
        private Maintainer() {}

        public static void main(String[] args) throws Exception {
            String location = args[0];
            Path stop = Path.of(args[1]);
            Table table = Tables.load(location);
            while (!Files.exists(stop)) {
                CompactionResult result = table.newCompaction().execute();
                if (result != null && result.commitId() > 0) {
                    System.out.println("COMPACT " + result.commitId());
                }
                ExpireSnapshotsResult expired =
                        table.expireSnapshots()
                                .retainLast(3)
                                .expireOlderThan(System.currentTimeMillis())
                                .commit();
                System.out.println("EXPIRED " + expired);
                Thread.sleep(20);
            }
            System.exit(0);
        }
    }
}
