package io.weir.cli.services;

import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.data.Timestamp;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code weir clean}: a dry run lists exactly what the real run then deletes; flags honoured. */
class CleanCommandTest {
    @TempDir Path dir;

    @Test
    void dryRunListsExactlyWhatARealRunDeletes() throws IOException {
        ServiceTable t = new ServiceTable(dir, 3);
        for (int i = 0; i < 6; i++) {
            t.commit(50);
            if (i % 2 == 1) {
                t.table.newCompaction().full().execute(); // makes files unreferenced by the latest
            }
        }
        long latest = Tables.load(t.location).currentSnapshot().id();
        Path bucket = Path.of(t.location, "dt=2024-01-01", "bucket-0");
        Path oldOrphan = orphan(bucket.resolve("log-orphan-old.wlog"), Duration.ofDays(2));
        Path youngOrphan = orphan(bucket.resolve("log-orphan-young.wlog"), Duration.ofMinutes(10));
        List<List<Object>> rows = t.rows();

        // The table's own retention (at least 10 snapshots, 1 h) expires nothing yet.
        Cli defaults = Cli.run("clean", "--table", t.location, "--dry-run");
        assertThat(defaults.exit()).as(defaults.err()).isZero();
        assertThat(defaults.out()).contains("Snapshots: would expire 0");
        assertThat(deleted(defaults.out())).containsExactly(oldOrphan.toString());

        String[] flags = {
            "clean", "--table", t.location, "--retain-last", "2", "--older-than", "0 s"
        };
        Cli dry = Cli.run(concat(flags, "--dry-run"));
        assertThat(dry.exit()).as(dry.err()).isZero();
        Set<String> wouldDelete = deleted(dry.out());
        assertThat(dry.out()).contains("would expire " + (latest - 1)).contains("Dry run");
        assertThat(wouldDelete)
                .contains(oldOrphan.toString())
                .doesNotContain(youngOrphan.toString());
        assertThat(wouldDelete.stream().filter(f -> f.endsWith(".parquet") || f.endsWith(".wlog")))
                .as("data files of expired snapshots")
                .hasSizeGreaterThan(1);
        assertThat(wouldDelete).allSatisfy(f -> assertThat(Path.of(f)).exists());

        Cli real = Cli.run(flags);
        assertThat(real.exit()).as(real.err()).isZero();
        assertThat(deleted(real.out())).isEqualTo(wouldDelete);
        assertThat(wouldDelete).allSatisfy(f -> assertThat(Path.of(f)).doesNotExist());
        assertThat(Tables.load(t.location).earliestRetainedCommit()).isEqualTo(latest - 1);
        assertThat(t.rows()).isEqualTo(rows);
        assertThat(youngOrphan).exists();

        Cli tooYoung = Cli.run("clean", "--table", t.location, "--orphans-older-than", "0 s");
        assertThat(tooYoung.exit()).isEqualTo(2);
        assertThat(tooYoung.err())
                .contains(
                        "Invalid value '0 s' for --orphans-older-than: must be at least 1 min, so"
                                + " that the files of writes still to be committed survive");
        assertThat(youngOrphan).exists();

        Cli orphans = Cli.run("clean", "--table", t.location, "--orphans-older-than", "5 min");
        assertThat(deleted(orphans.out())).containsExactly(youngOrphan.toString());
        assertThat(youngOrphan).doesNotExist();
        assertThat(t.rows()).isEqualTo(rows);
    }

    @Test
    void dropsExpiredTimePartitionsBeforeExpiringSnapshots() throws IOException {
        RowType type =
                RowType.of(
                        "id", DataTypes.BIGINT(),
                        "ts", DataTypes.TIMESTAMP(3),
                        "dt", DataTypes.DATE());
        String location = dir.resolve("events").toString();
        Table table =
                Tables.create(
                        location,
                        new Schema(type, List.of("id", "ts"), List.of("dt")),
                        Map.of("partition.time.column", "ts", "partition.expiration-time", "3 d"));
        long now = System.currentTimeMillis();
        try (TableWrite write = table.newWrite().create()) {
            for (int day = 0; day < 6; day++) {
                long ts = now - day * 86_400_000L;
                write.write(BinaryRowWriter.toRow(type, (long) day, Timestamp.ofMillis(ts), null));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        // Days ending more than 3 days ago: 4 and 5 days back (3 days back ends 2 days ago).
        List<String> expired =
                List.of(
                        "dropped partition dt=" + today.minusDays(5),
                        "dropped partition dt=" + today.minusDays(4));

        Cli dry = Cli.run("clean", "--table", location, "--dry-run");
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out())
                .contains(expired.get(0).replace("dropped", "would drop"))
                .contains(expired.get(1).replace("dropped", "would drop"))
                .contains("Partitions: would drop 2 (");
        assertThat(Tables.load(location).currentSnapshot().id()).isEqualTo(1);

        Cli real =
                Cli.run("clean", "--table", location, "--retain-last", "1", "--older-than", "0 s");
        assertThat(real.exit()).as(real.err()).isZero();
        assertThat(real.out())
                .contains(expired)
                .contains("Partitions: dropped 2 (")
                .contains("in commit 2");
        Table loaded = Tables.load(location);
        assertThat(loaded.currentSnapshot().files()).hasSize(4);
        // Snapshot 1 still holds the dropped days' files; the next clean (after the drop) expires
        // it.
        Path oldest = Path.of(location, "dt=" + today.minusDays(5));
        assertThat(files(oldest)).isOne();
        Cli after =
                Cli.run("clean", "--table", location, "--retain-last", "1", "--older-than", "0 s");
        assertThat(deleted(after.out()))
                .as(after.out())
                .hasSize(4) // the dropped days' logs, commit and checkpoint 1
                .anyMatch(f -> f.contains("dt=" + today.minusDays(5)));
        assertThat(files(oldest)).isZero(); // empty directories stay

        Cli older = Cli.run("clean", "--table", location, "--partitions-older-than", "0 s");
        assertThat(older.out()).contains("Partitions: dropped 3 (").contains("in commit 3");
    }

    /**
     * A compaction killed before its commit leaves its writer lease until it ends: clean keeps the
     * files it covers and names the lease and when it ends (docs/cli.md).
     */
    @Test
    void namesTheWriterLeaseThatKeepsFiles() throws IOException {
        ServiceTable t = new ServiceTable(dir, 3);
        t.commit(50);
        long since = System.currentTimeMillis() - Duration.ofHours(2).toMillis();
        var lease = t.table.writerLeases().hold("compaction-killed", since, Duration.ofHours(1));
        Path bucket = Path.of(t.location, "dt=2024-01-01", "bucket-0");
        Path output = orphan(bucket.resolve("base-uncommitted.parquet"), Duration.ofHours(1));

        Cli cli = Cli.run("clean", "--table", t.location, "--orphans-older-than", "1 min");
        assertThat(cli.exit()).as(cli.err()).isZero();
        assertThat(cli.out())
                .contains("Orphans: kept 1 unreferenced files of writes not committed yet")
                .contains(
                        "  writer lease compaction-killed: files since "
                                + Instant.ofEpochMilli(since - 60_000)
                                + ", ends "
                                + Instant.ofEpochMilli(lease.expiresMillis())
                                + " unless renewed");
        assertThat(output).exists();

        // Once released (or ended), the file is an orphan like any other.
        t.table.writerLeases().release("compaction-killed");
        Cli after = Cli.run("clean", "--table", t.location, "--orphans-older-than", "1 min");
        assertThat(deleted(after.out())).containsExactly(output.toString());
    }

    @Test
    void rejectsABadDuration() {
        ServiceTable t = new ServiceTable(dir, 4);
        t.commit(5);
        Cli cli = Cli.run("clean", "--table", t.location, "--older-than", "soon");
        assertThat(cli.exit()).isEqualTo(2);
        assertThat(cli.err()).contains("--older-than").contains("a duration such as");
    }

    private static long files(Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).count();
        }
    }

    private static Path orphan(Path path, Duration age) throws IOException {
        Files.writeString(path, "not committed");
        Files.setLastModifiedTime(path, FileTime.from(Instant.now().minus(age)));
        return path;
    }

    /** The files a run printed as deleted (or to delete). */
    private static Set<String> deleted(String out) {
        Set<String> files = new TreeSet<>();
        for (String line : out.split("\n")) {
            int at = line.indexOf(" file ");
            if (line.startsWith("deleted ") || line.startsWith("would delete ")) {
                files.add(line.substring(at + " file ".length()).trim());
            }
        }
        return files;
    }

    private static String[] concat(String[] a, String b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + 1);
        all[a.length] = b;
        return all;
    }
}
