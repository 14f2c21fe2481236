package io.weir.flink.lookup;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.types.DataTypes;
import io.weir.types.Field;
import io.weir.types.RowType;

import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The on-disk hash index against a map, with small segments so that entries meet their ends. */
class LookupIndexTest {
    private static final RowType KEY = new RowType(List.of(new Field(0, "k", DataTypes.STRING())));
    private static final RowType ROW =
            new RowType(
                    List.of(
                            new Field(0, "k", DataTypes.STRING()),
                            new Field(1, "v", DataTypes.BIGINT())));

    @TempDir Path dir;

    @Test
    void findsEveryRowOfAKeyAndNothingForOtherKeys() {
        Random random = new Random(5);
        Map<String, List<Long>> model = new HashMap<>();
        LookupIndex index;
        try (LookupIndex.Builder builder = LookupIndex.builder(dir.resolve("i"), 2, 10)) {
            for (long i = 0; i < 20_000; i++) {
                // Keys of 1 to 40 characters: inlined and out-of-line strings; many repeated.
                String k = "k".repeat(random.nextInt(40)) + random.nextInt(3000);
                BinaryRow key = BinaryRowWriter.toRow(KEY, k);
                builder.add(key, LookupIndex.hash(key), BinaryRowWriter.toRow(ROW, k, i));
                model.computeIfAbsent(k, x -> new ArrayList<>()).add(i);
            }
            index = builder.build();
        }
        assertThat(index.entries()).isEqualTo(20_000);
        assertThat(dir.resolve("i.pairs")).doesNotExist();
        for (Map.Entry<String, List<Long>> e : model.entrySet()) {
            BinaryRow key = BinaryRowWriter.toRow(KEY, e.getKey());
            List<RowData> rows = index.find(key, LookupIndex.hash(key), null);
            List<Long> values = new ArrayList<>();
            for (RowData r : rows) {
                assertThat(r.getString(0).toString()).isEqualTo(e.getKey());
                values.add(r.getLong(1));
            }
            assertThat(values).containsExactlyInAnyOrderElementsOf(e.getValue());
        }
        for (int i = 0; i < 1000; i++) {
            BinaryRow key = BinaryRowWriter.toRow(KEY, "absent-" + i);
            assertThat(index.find(key, LookupIndex.hash(key), null)).isNull();
        }
        index.close();
        assertThat(dir.resolve("i")).doesNotExist();
    }

    @Test
    void anEmptyIndexFindsNothing() {
        LookupIndex index;
        try (LookupIndex.Builder builder = LookupIndex.builder(dir.resolve("e"), 2)) {
            index = builder.build();
        }
        BinaryRow key = BinaryRowWriter.toRow(KEY, "x");
        assertThat(index.find(key, LookupIndex.hash(key), null)).isNull();
        index.close();
    }

    @Test
    void aRowLargerThanASegmentIsRefusedAndLeavesNoFiles() throws Exception {
        try (LookupIndex.Builder builder = LookupIndex.builder(dir.resolve("big"), 2, 10)) {
            String k = "x".repeat(2000);
            BinaryRow key = BinaryRowWriter.toRow(KEY, k);
            assertThatThrownBy(
                            () ->
                                    builder.add(
                                            key,
                                            LookupIndex.hash(key),
                                            BinaryRowWriter.toRow(ROW, k, 1L)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("too large");
        }
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
