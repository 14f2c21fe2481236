package io.weir.bench.e2e.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Hudi timeline replayed: instant files as Hudi 0.14 writes them (the fields the replay reads),
 * completed in an order other than their start, with the figures worked out by hand.
 */
class HudiHistoryTest {
    private static final String D1 = "20260101000001";
    private static final String D2 = "20260101000002";
    private static final String C3 = "20260101000003";
    private static final String D4 = "20260101000004";

    @TempDir Path table;

    @Test
    void aCompactionRemovesTheOlderSliceOfItsFileGroupOnly() throws Exception {
        instant(
                D1 + ".deltacommit",
                1_000,
                stat("A", log("A", D1, 1), 100, 10),
                stat("B", log("B", D1, 1), 50, 5));
        instant(D2 + ".deltacommit", 2_000, stat("A", log("A", D1, 2), 100, 10));
        // Scheduled before D4 started, completed after it: D4's log opens the new slice.
        instant(C3 + ".commit", 5_000, stat("A", "A_0-1-0_" + C3 + ".parquet", 120, 12));
        instant(D4 + ".deltacommit", 4_000, stat("A", log("A", C3, 1), 30, 3));
        Files.writeString(table.resolve(".hoodie").resolve(D4 + ".deltacommit.requested"), "");

        JsonNode f = figures(HudiHistory.read(table));
        assertThat(f.get("ingest_commits").asLong()).isEqualTo(3);
        assertThat(f.get("compaction_commits").asLong()).isEqualTo(1);
        assertThat(f.get("ingested_bytes").asLong()).isEqualTo(280);
        assertThat(f.get("compaction_bytes_written").asLong()).isEqualTo(120);
        assertThat(f.get("compaction_bytes_read").asLong()).isEqualTo(200);
        assertThat(f.get("write_amp").asDouble()).isEqualTo(0.428571);
        // after D1: A 1, B 1; after D2: A 2; after D4: A's two old logs and its new one
        assertThat(f.get("runs_max").asInt()).isEqualTo(3);
        assertThat(f.get("runs_median").asInt()).isEqualTo(2);
        assertThat(f.get("file_groups").asInt()).isEqualTo(2);
        // B's log, A's base and A's log of the new slice
        assertThat(f.get("live_files").asInt()).isEqualTo(3);
        assertThat(f.get("live_bytes").asLong()).isEqualTo(200);
        // D2 compacted when C3 completed (3 s); D1 waits on B's log, D4 on its own
        assertThat(f.get("compacted_commits").asInt()).isEqualTo(1);
        assertThat(f.get("uncompacted_commits").asInt()).isEqualTo(2);
        assertThat(f.get("compaction_latency_max_s").asDouble()).isEqualTo(3.0);
    }

    @Test
    void aTimelineWithArchivedInstantsHasNoHistory() throws Exception {
        instant(D1 + ".deltacommit", 1_000, stat("A", log("A", D1, 1), 100, 10));
        Path archived = Files.createDirectories(table.resolve(".hoodie").resolve("archived"));
        Files.writeString(archived.resolve(".commits_.archive.1_1-0-1"), "");
        assertThat(HudiHistory.read(table)).isNotNull();
        Files.writeString(archived.resolve("commits_.archive.1_1-0-1"), "avro");
        assertThat(HudiHistory.read(table)).isNull();
    }

    private static String log(String fileId, String baseInstant, int version) {
        return "." + fileId + "_" + baseInstant + ".log." + version + "_0-1-0";
    }

    private static String stat(String fileId, String path, long bytes, long rows) {
        return String.format(
                "{\"fileId\":\"%s\",\"path\":\"%s\",\"partitionPath\":\"\",\"prevCommit\":\"null\","
                        + "\"numWrites\":%d,\"totalWriteBytes\":%d}",
                fileId, path, rows, bytes);
    }

    private void instant(String name, long completedMillis, String... stats) throws Exception {
        Path timeline = Files.createDirectories(table.resolve(".hoodie"));
        Path file = timeline.resolve(name);
        Files.writeString(
                file,
                "{\"partitionToWriteStats\":{\"\":["
                        + String.join(",", stats)
                        + "]},\"compacted\":false,\"operationType\":\"UPSERT\"}");
        Files.setLastModifiedTime(file, FileTime.fromMillis(completedMillis));
    }

    private static JsonNode figures(CompactionHistory history) throws Exception {
        return new ObjectMapper().readTree(history.addTo(new JsonLine()).toString());
    }
}
