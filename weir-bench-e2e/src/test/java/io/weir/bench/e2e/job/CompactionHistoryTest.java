package io.weir.bench.e2e.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The figures of a replayed history, worked out by hand for small histories. */
class CompactionHistoryTest {
    private static CompactionHistory.File log(String group, String name, long bytes, long rows) {
        return new CompactionHistory.File(group, name, bytes, rows, "log:" + name);
    }

    private static JsonNode figures(CompactionHistory history) throws Exception {
        return new ObjectMapper().readTree(history.addTo(new JsonLine()).toString());
    }

    @Test
    void weirLikeHistory() throws Exception {
        CompactionHistory h = new CompactionHistory();
        h.commit(
                1, 1_000, true, List.of(log("g0", "a", 100, 10), log("g1", "b", 50, 5)), List.of());
        h.commit(2, 3_000, true, List.of(log("g0", "c", 100, 10)), List.of());
        h.commit(
                3,
                4_000,
                false,
                List.of(new CompactionHistory.File("g0", "d", 150, 15, "base:2")),
                List.of("a", "c"));
        h.commit(4, 6_000, true, List.of(log("g1", "e", 50, 5)), List.of());
        h.commit(
                5,
                9_000,
                false,
                List.of(new CompactionHistory.File("g1", "f", 80, 10, "base:4")),
                List.of("b", "e"));

        JsonNode f = figures(h);
        assertThat(f.get("ingest_commits").asLong()).isEqualTo(3);
        assertThat(f.get("compaction_commits").asLong()).isEqualTo(2);
        assertThat(f.get("ingested_bytes").asLong()).isEqualTo(300);
        assertThat(f.get("compaction_bytes_written").asLong()).isEqualTo(230);
        assertThat(f.get("compaction_bytes_read").asLong()).isEqualTo(300);
        assertThat(f.get("write_amp").asDouble()).isEqualTo(0.766667);
        // after commits 1, 2 and 4: g0 {a} g1 {b}; g0 {a, c}; g0 {d} g1 {b, e}
        assertThat(f.get("runs_max").asInt()).isEqualTo(2);
        assertThat(f.get("runs_median").asInt()).isEqualTo(2);
        assertThat(f.get("file_groups").asInt()).isEqualTo(2);
        assertThat(f.get("live_files").asInt()).isEqualTo(2);
        assertThat(f.get("live_bytes").asLong()).isEqualTo(230);
        // commit 2 compacted at 4 s (1 s), commit 4 at 9 s (3 s), commit 1's last file at 9 s (8 s)
        assertThat(f.get("compacted_commits").asInt()).isEqualTo(3);
        assertThat(f.get("uncompacted_commits").asInt()).isZero();
        assertThat(f.get("compaction_latency_p50_s").asDouble()).isEqualTo(3.0);
        assertThat(f.get("compaction_latency_max_s").asDouble()).isEqualTo(8.0);
        assertThat(f.get("timeline").asText())
                .isEqualTo("0.000,15,2,1,2,150;2.000,25,3,2,3,250;5.000,30,3,2,2,100");
        assertThat(CompactionHistory.parseTimeline(f.get("timeline").asText()))
                .isEqualTo(h.timeline());
    }

    @Test
    void aFileMovedToAnotherLevelIsCompactedWithoutBytesWritten() throws Exception {
        CompactionHistory h = new CompactionHistory();
        h.commit(
                1,
                10_000,
                true,
                List.of(new CompactionHistory.File("b0", "x", 100, 10, "L0:x")),
                List.of());
        h.commit(
                2,
                12_500,
                false,
                List.of(new CompactionHistory.File("b0", "x", 100, 10, "L5")),
                List.of("x"));
        h.commit(
                3,
                14_000,
                true,
                List.of(new CompactionHistory.File("b0", "y", 40, 4, "L0:y")),
                List.of());
        h.commit(4, 16_000, true, List.of(), List.of()); // a snapshot without data files

        JsonNode f = figures(h);
        assertThat(f.get("ingest_commits").asInt()).isEqualTo(3);
        assertThat(f.get("ingest_commits_with_files").asInt()).isEqualTo(2);
        assertThat(f.get("compaction_bytes_written").asLong()).isZero();
        assertThat(f.get("compaction_bytes_read").asLong()).isZero();
        assertThat(f.get("write_amp").asDouble()).isZero();
        assertThat(f.get("runs_max").asInt()).isEqualTo(2); // level 5 and y
        assertThat(f.get("runs_median").asInt()).isEqualTo(2); // lower median of [1, 2, 2]
        assertThat(f.get("compacted_commits").asInt()).isEqualTo(1);
        assertThat(f.get("uncompacted_commits").asInt()).isEqualTo(1);
        assertThat(f.get("compaction_latency_p50_s").asDouble()).isEqualTo(2.5);
        assertThat(f.get("live_files").asInt()).isEqualTo(2);
    }

    @Test
    void filesOfOneRunCountOnce() {
        CompactionHistory h = new CompactionHistory();
        h.start(
                List.of(
                        new CompactionHistory.File("g", "base-1", 10, 1, "base:7"),
                        new CompactionHistory.File("g", "base-2", 10, 1, "base:7")));
        h.commit(8, 0, true, List.of(log("g", "l", 5, 1)), List.of());
        assertThat(h.maxRuns()).isEqualTo(2);
        assertThat(h.timeline().get(0).backlogFiles()).isEqualTo(1); // the start is not pending
    }

    @Test
    void removingAFileThatIsNotLiveIsAnError() {
        CompactionHistory h = new CompactionHistory();
        h.commit(1, 0, true, List.of(log("g", "a", 1, 1)), List.of());
        assertThatThrownBy(() -> h.commit(2, 1, false, List.of(), List.of("b")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Commit 2 removes b, which is not live");
    }

    @Test
    void anEmptyHistoryHasNoFigures() throws Exception {
        JsonNode f = figures(new CompactionHistory());
        assertThat(f.get("write_amp").isNull()).isTrue();
        assertThat(f.get("runs_max").asInt()).isEqualTo(-1);
        assertThat(f.get("compaction_latency_p50_s").isNull()).isTrue();
        assertThat(f.get("timeline").asText()).isEmpty();
    }
}
