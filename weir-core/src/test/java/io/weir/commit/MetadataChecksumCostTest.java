package io.weir.commit;

import io.weir.Commit;
import io.weir.CommitKind;
import io.weir.DataFile;
import io.weir.testing.MetadataText;
import io.weir.testing.TestDataFiles;
import io.weir.util.Json;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the metadata checksum costs (docs/format.md §6, docs/performance.md): the time to write and
 * to read a commit file and a checkpoint, and the part of it the checksum takes. Behind {@code
 * -Dweir.bench.metadataChecksum=true}: it prints figures and takes about half a minute.
 */
@EnabledIfSystemProperty(named = "weir.bench.metadataChecksum", matches = "true")
class MetadataChecksumCostTest {
    private static final String FILE = "/t/_weir/commits/00000000000000000001.json";

    @Test
    void cost() {
        measure("commit, 10 files", commit(10));
        measure("commit, 1000 files", commit(1000));
        TableState.Builder state = TableState.empty(0, 1).toBuilder();
        state.apply(commit(20_000));
        TableState built = state.build();
        String checkpoint = CheckpointParser.toJson(built);
        long[] t = new long[4];
        for (int round = 0; round < 8; round++) {
            t =
                    times(
                            () -> CheckpointParser.toJson(built),
                            () -> CheckpointParser.fromJson(FILE, checkpoint),
                            () ->
                                    CheckpointParser.fromJson(
                                            FILE, MetadataText.withoutChecksum(checkpoint)),
                            () -> checksumOnly(checkpoint),
                            2);
        }
        print("checkpoint, 20000 files", checkpoint, t);
    }

    private static Commit commit(int files) {
        List<DataFile> added = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            added.add(TestDataFiles.log("2024-11-" + (10 + i % 20), i % 16).withSequence(i + 1));
        }
        return new Commit(
                1,
                1_732_000_000_000L,
                CommitKind.APPEND,
                0,
                "flink-4b2e9c",
                17,
                added,
                List.of(),
                Map.of("added-records", "1200"));
    }

    private static void measure(String what, Commit commit) {
        String json = CommitParser.toJson(commit);
        String unchecked = MetadataText.withoutChecksum(json);
        int n = Math.max(20, 200_000 / commit.added().size());
        long[] t = new long[4];
        for (int round = 0; round < 5; round++) {
            t =
                    times(
                            () -> CommitParser.toJson(commit),
                            () -> CommitParser.fromJson(FILE, json),
                            () -> CommitParser.fromJson(FILE, unchecked),
                            () -> checksumOnly(json),
                            n);
        }
        print(what, json, t);
    }

    /** The checksum's work, as Json does it: the UTF-8 bytes and the CRC-32C after the member. */
    private static int checksumOnly(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(bytes, Json.CHECKSUM_COVERED_FROM, bytes.length - Json.CHECKSUM_COVERED_FROM);
        return (int) crc.getValue();
    }

    private static long sink;

    /** Nanoseconds per call of each: write, read checked, read unchecked, checksum alone. */
    private static long[] times(
            java.util.function.Supplier<?> write,
            java.util.function.Supplier<?> read,
            java.util.function.Supplier<?> readUnchecked,
            java.util.function.IntSupplier checksum,
            int n) {
        long[] out = new long[4];
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            sink += write.get().hashCode();
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            sink += read.get().hashCode();
        }
        long t2 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            sink += readUnchecked.get().hashCode();
        }
        long t3 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            sink += checksum.getAsInt();
        }
        long t4 = System.nanoTime();
        out[0] = (t1 - t0) / n;
        out[1] = (t2 - t1) / n;
        out[2] = (t3 - t2) / n;
        out[3] = (t4 - t3) / n;
        return out;
    }

    private static void print(String what, String json, long[] t) {
        assertThat(t[0]).isPositive();
        System.out.printf(
                "%s (%d bytes): write %.1f us, read %.1f us (unchecked %.1f us),"
                        + " checksum alone %.1f us = %.1f%% of write + read%n",
                what,
                json.getBytes(StandardCharsets.UTF_8).length,
                t[0] / 1e3,
                t[1] / 1e3,
                t[2] / 1e3,
                t[3] / 1e3,
                100.0 * 2 * t[3] / (t[0] + t[1]));
    }
}
