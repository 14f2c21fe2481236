package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.exceptions.CorruptFileException;
import io.weir.testing.MetadataText;
import io.weir.testing.TestDataFiles;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckpointParserTest {
    private static final String FILE = "/t/_weir/checkpoints/00000000000000000002.json";

    private static TableState sample() {
        DataFile a = TestDataFiles.log("2024-01-01", 0).withSequence(1);
        DataFile b = TestDataFiles.log("2024-01-02", 1).withSequence(2);
        DataFile c = TestDataFiles.log("2024-01-01", 0).withSequence(3);
        DataFile base = TestDataFiles.base("2024-01-01", 0, 3);
        return TableState.empty(0, 100).toBuilder()
                .apply(
                        new Commit(
                                1,
                                200,
                                CommitKind.APPEND,
                                0,
                                "w1",
                                7,
                                List.of(a, b, c),
                                List.of(),
                                Map.of()))
                .apply(
                        new Commit(
                                2,
                                300,
                                CommitKind.COMPACT,
                                0,
                                null,
                                -1,
                                List.of(base),
                                List.of(a.path(), c.path()),
                                Map.of()))
                .build();
    }

    @Test
    void roundTrips() {
        TableState state = sample();
        String json = CheckpointParser.toJson(state);
        TableState parsed = CheckpointParser.fromJson(FILE, json);

        assertThat(parsed).isEqualTo(state);
        assertThat(parsed.fileCount()).isEqualTo(2);
        assertThat(parsed.lastSequence()).isEqualTo(3);
        assertThat(parsed.writers()).containsEntry("w1", new WriterCheckpoint(7, 1));
        assertThat(CheckpointParser.toJson(parsed)).isEqualTo(json);
    }

    @Test
    void roundTripsTheEmptyState() {
        TableState empty = TableState.empty(0, 123);
        assertThat(CheckpointParser.fromJson(FILE, CheckpointParser.toJson(empty)))
                .isEqualTo(empty);
    }

    @Test
    void rejectsInconsistentContent() {
        String json = MetadataText.withoutChecksum(CheckpointParser.toJson(sample()));
        assertThatThrownBy(
                        () ->
                                CheckpointParser.fromJson(
                                        FILE,
                                        json.replace(
                                                "\"last-sequence\" : 3", "\"last-sequence\" : 2")))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(
                        "field 'files[0].sequence': 3 is greater than last-sequence 2");
        assertThatThrownBy(
                        () ->
                                CheckpointParser.fromJson(
                                        FILE, json.replace("\"writers\" : {", "\"writers\" : [")))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("malformed JSON");
        assertThatThrownBy(
                        () ->
                                CheckpointParser.fromJson(
                                        FILE,
                                        json.replace(
                                                "\"checkpoint-id\" : 7", "\"checkpoint\" : 7")))
                .hasMessage(
                        "Corrupt file " + FILE + ": field 'writers.w1.checkpoint-id' is missing");
    }
}
