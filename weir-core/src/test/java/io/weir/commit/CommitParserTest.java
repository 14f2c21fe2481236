package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Partition;
import io.weir.exceptions.CorruptFileException;
import io.weir.testing.MetadataText;
import io.weir.testing.TestDataFiles;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommitParserTest {
    private static final String FILE = "/t/_weir/commits/00000000000000000007.json";

    private static Commit sample() {
        DataFile nullPartition =
                new DataFile(
                        "region=__DEFAULT_PARTITION__/bucket-0/log-1.wlog",
                        FileKind.LOG,
                        new Partition(Arrays.asList((String) null)),
                        0,
                        3,
                        77,
                        12,
                        0,
                        List.of(),
                        List.of(),
                        Map.of());
        return new Commit(
                7,
                1_700_000_000_000L,
                CommitKind.COMPACT,
                0,
                "flink-job-1",
                42,
                List.of(
                        TestDataFiles.log("2024-01-01", 3).withSequence(11),
                        TestDataFiles.base("2024-01-01", 3, 10),
                        nullPartition),
                List.of("dt=2024-01-01/bucket-3/log-a.wlog", "dt=2024-01-01/bucket-3/log-b.wlog"),
                Map.of("added-records", "113", "engine", "flink"));
    }

    @Test
    void roundTrips() {
        Commit commit = sample();
        String json = CommitParser.toJson(commit);
        Commit parsed = CommitParser.fromJson(FILE, json);

        assertThat(parsed).isEqualTo(commit);
        assertThat(parsed.added().get(2).partition().values()).containsExactly((String) null);
        assertThat(CommitParser.toJson(parsed)).isEqualTo(json);
        assertThat(json)
                .contains("\"commit-id\" : 7")
                .contains("\"kind\" : \"COMPACT\"")
                .contains("\"writer-id\" : \"flink-job-1\"")
                .contains("\"partition\" : [ null ]")
                .contains("\"null-count\" : 100");
    }

    @Test
    void roundTripsAnAnonymousEmptyCommit() {
        Commit commit =
                new Commit(1, 5, CommitKind.APPEND, 0, null, -1, List.of(), List.of(), Map.of());
        String json = CommitParser.toJson(commit);
        assertThat(CommitParser.fromJson(FILE, json)).isEqualTo(commit);
        assertThat(json).doesNotContain("writer-id");
    }

    @Test
    void namesTheBadField() {
        String json = MetadataText.withoutChecksum(CommitParser.toJson(sample()));
        assertThatThrownBy(
                        () ->
                                CommitParser.fromJson(
                                        FILE, json.replaceFirst("\"sequence\" : 11,\\s*", "")))
                .isInstanceOf(CorruptFileException.class)
                .hasMessage("Corrupt file " + FILE + ": field 'added[0].sequence' is missing");
        assertThatThrownBy(
                        () ->
                                CommitParser.fromJson(
                                        FILE, json.replace("\"COMPACT\"", "\"SHRINK\"")))
                .hasMessage("Corrupt file " + FILE + ": field 'kind': unknown value \"SHRINK\"");
        assertThatThrownBy(
                        () ->
                                CommitParser.fromJson(
                                        FILE, json.replace("\"bucket\" : 3", "\"bucket\" : 3.5")))
                .hasMessageContaining("field 'added[0].bucket': expected a 32-bit integer");
        assertThatThrownBy(
                        () ->
                                CommitParser.fromJson(
                                        FILE,
                                        json.replace(
                                                "\"removed\" : [ \"dt", "\"removed\" : [ 5, \"dt")))
                .hasMessageContaining("field 'removed[0]': expected a string, got number 5");
        assertThatThrownBy(
                        () ->
                                CommitParser.fromJson(
                                        FILE,
                                        json.replace("\"commit-id\" : 7", "\"commit-id\" : 0")))
                .hasMessageContaining("field 'commit-id': must be >= 1, got 0");
    }

    @Test
    void rejectsTruncatedAndUnknownVersions() {
        String json = MetadataText.withoutChecksum(CommitParser.toJson(sample()));
        assertThatThrownBy(() -> CommitParser.fromJson(FILE, json.substring(0, 200)))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageStartingWith("Corrupt file " + FILE + " at offset ")
                .hasMessageContaining("malformed JSON");
        assertThatThrownBy(
                        () ->
                                CommitParser.fromJson(
                                        FILE,
                                        json.replace(
                                                "\"format-version\" : 1",
                                                "\"format-version\" : 9")))
                .hasMessageContaining("unsupported format-version 9");
        assertThatThrownBy(
                        () ->
                                CommitParser.fromJson(
                                        FILE, json.replace("\"format-version\" : 1,", "")))
                .hasMessageContaining("field 'format-version' is missing");
    }

    @Test
    void everyFlippedBitIsACorruptFileError() {
        // The checksum covers every byte after its member; flips in the member itself break its
        // layout, its digits, or the rule that an unchecked document starts with format-version.
        byte[] good = CommitParser.toJson(sample()).getBytes(StandardCharsets.UTF_8);
        assertThat(new String(good, StandardCharsets.UTF_8))
                .startsWith("{\n  \"checksum\" : \"crc32c:");
        for (int i = 0; i < good.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] bad = good.clone();
                bad[i] ^= (byte) (1 << bit);
                String text = new String(bad, StandardCharsets.UTF_8);
                int offset = i;
                assertThatThrownBy(() -> CommitParser.fromJson(FILE, text))
                        .as("bit %d of byte %d", bit, offset)
                        .isInstanceOf(CorruptFileException.class)
                        .hasMessageStartingWith("Corrupt file " + FILE);
            }
        }
    }
}
