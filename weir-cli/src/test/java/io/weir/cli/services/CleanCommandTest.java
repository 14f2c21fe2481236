package io.weir.cli.services;

import io.weir.Tables;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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

        Cli orphans = Cli.run("clean", "--table", t.location, "--orphans-older-than", "5 min");
        assertThat(deleted(orphans.out())).containsExactly(youngOrphan.toString());
        assertThat(youngOrphan).doesNotExist();
        assertThat(t.rows()).isEqualTo(rows);
    }

    @Test
    void rejectsABadDuration() {
        ServiceTable t = new ServiceTable(dir, 4);
        t.commit(5);
        Cli cli = Cli.run("clean", "--table", t.location, "--older-than", "soon");
        assertThat(cli.exit()).isEqualTo(2);
        assertThat(cli.err()).contains("--older-than").contains("a duration such as");
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
