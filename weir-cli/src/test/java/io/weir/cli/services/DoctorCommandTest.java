package io.weir.cli.services;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code weir doctor}: reports damaged and missing metadata, and repairs with a rollback. */
class DoctorCommandTest {
    @TempDir Path dir;

    @Test
    void healthyTable() {
        ServiceTable t = new ServiceTable(dir, 1);
        t.commit(20);
        Cli cli = Cli.run("doctor", "--table", t.location);
        assertThat(cli.exit()).as(cli.err()).isZero();
        assertThat(cli.out())
                .contains("Latest commit: 1 (readable)")
                .contains("OK: every metadata file reads");
    }

    @Test
    void reportsADamagedNewestCommitAndRepairsIt() throws Exception {
        ServiceTable t = new ServiceTable(dir, 2);
        for (int i = 0; i < 4; i++) {
            t.commit(20);
        }
        List<List<Object>> atThree = t.rowsAt(3);
        Path commit4 = Path.of(t.location, "_weir/commits/00000000000000000004.json");
        Files.writeString(commit4, "{ \"format-version\" : 1, ");
        Files.writeString(Path.of(t.location, "_weir/LATEST"), "garbage");

        Cli check = Cli.run("doctor", "--table", t.location);
        assertThat(check.exit()).isEqualTo(2);
        assertThat(check.out())
                .contains("problem: Corrupt file " + commit4)
                .contains("problem: Corrupt file " + t.location + "/_weir/LATEST: not a commit id")
                .contains("Latest commit: 4 (cannot be read)")
                .contains("Readable snapshots (newest first): [3, 2, 1, 0]")
                .contains("Repair: weir doctor --table " + t.location + " --rollback-to 3");

        Cli repair = Cli.run("doctor", "--table", t.location, "--rollback-to", "3");
        assertThat(repair.exit()).as(repair.out() + repair.err()).isEqualTo(1); // problems remain
        assertThat(repair.out())
                .contains("Rolled back table " + t.location + " to snapshot 3: commit 5")
                .contains("Latest commit: 5 (readable)")
                .contains("The table is usable");
        assertThat(t.rows()).isEqualTo(atThree);
    }

    @Test
    void deletedNewestCommit() throws Exception {
        ServiceTable t = new ServiceTable(dir, 3);
        for (int i = 0; i < 3; i++) {
            t.commit(20);
        }
        Path commit3 = Path.of(t.location, "_weir/commits/00000000000000000003.json");
        Files.delete(commit3);
        Cli check = Cli.run("doctor", "--table", t.location);
        assertThat(check.exit()).isEqualTo(2);
        assertThat(check.out())
                .contains("problem: Corrupt file " + commit3 + ": missing, but the LATEST hint")
                .contains("Latest commit: 3 (cannot be read)")
                .contains("--rollback-to 2");
        Cli repair = Cli.run("doctor", "--table", t.location, "--rollback-to", "2");
        assertThat(repair.exit()).as(repair.out() + repair.err()).isZero();
        assertThat(repair.out()).contains("commit 4").contains("Latest commit: 4 (readable)");
    }

    @Test
    void flippedByteInACommitValueIsReportedAsAChecksumMismatch() throws Exception {
        ServiceTable t = new ServiceTable(dir, 4);
        for (int i = 0; i < 3; i++) {
            t.commit(20);
        }
        Path commit3 = Path.of(t.location, "_weir/commits/00000000000000000003.json");
        byte[] bytes = Files.readAllBytes(commit3);
        String text = new String(bytes, StandardCharsets.US_ASCII);
        int digit = text.indexOf("\"record-count\" : ") + "\"record-count\" : ".length();
        bytes[digit] = (byte) (bytes[digit] == '9' ? '8' : bytes[digit] + 1); // still valid JSON
        Files.write(commit3, bytes);

        Cli check = Cli.run("doctor", "--table", t.location);
        assertThat(check.exit()).isEqualTo(2);
        assertThat(check.out())
                .contains(
                        "problem: Corrupt file "
                                + commit3
                                + " at offset 25: checksum mismatch: the file says crc32c:"
                                + text.substring(25, 33))
                .contains("Latest commit: 3 (cannot be read)")
                .contains("Repair: weir doctor --table " + t.location + " --rollback-to 2");
    }
}
