package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.io.FileIO;
import io.weir.testing.Rows;
import io.weir.testing.TestStorage;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compactions running in another thread (with their own Table object) while a writer keeps
 * appending upserts to the same file groups: every commit lands, and the table equals the model.
 */
class CompactionRaceTest {
    private static final RowType TYPE = RowType.of("k", DataTypes.INT(), "v", DataTypes.BIGINT());

    @TempDir Path dir;
    private final TestStorage storage = TestStorage.current();

    @Test
    void compactionsNeverConflictWithAppends() throws Exception {
        FileIO io = storage.io();
        String location = storage.location(dir, "t");
        Tables.create(
                io, location, new Schema(TYPE, List.of("k"), List.of()), Map.of("bucket", "2"));
        Table writer = Tables.load(io, location);
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Long> compactions = new ArrayList<>();
        Thread compactor =
                new Thread(
                        () -> {
                            Table table = Tables.load(io, location);
                            try {
                                while (!done.get()) {
                                    CompactionResult r = table.newCompaction().full().execute();
                                    if (r != null) {
                                        compactions.add(r.commitId());
                                    }
                                }
                            } catch (Throwable t) {
                                failure.set(t);
                            }
                        });
        compactor.start();
        Map<Integer, Long> model = new TreeMap<>();
        for (int c = 0; c < 60; c++) {
            try (TableWrite write = writer.newWrite().create()) {
                for (int i = 0; i < 50; i++) {
                    int k = (c * 31 + i * 7) % 97;
                    long v = c * 1000L + i;
                    write.write(BinaryRowWriter.toRow(TYPE, k, v));
                    model.put(k, v);
                }
                writer.newAppend().addFiles(write.prepareCommit()).commit();
            }
        }
        done.set(true);
        compactor.join();
        assertThat(failure.get()).isNull();
        assertThat(compactions).isNotEmpty();

        writer.refresh();
        List<List<Object>> expected = new ArrayList<>();
        model.forEach((k, v) -> expected.add(List.of(k, v)));
        List<List<Object>> actual = Rows.readAll(writer.newScan().rows(), TYPE, false);
        actual.sort((a, b) -> Integer.compare((Integer) a.get(0), (Integer) b.get(0)));
        assertThat(actual).isEqualTo(expected);
        long appends =
                java.util.stream.LongStream.rangeClosed(1, writer.currentSnapshot().id())
                        .filter(id -> writer.commit(id).kind() == CommitKind.APPEND)
                        .count();
        assertThat(appends).isEqualTo(60);
    }
}
