package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.memory.MemoryPool;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * String keys whose 8-byte prefixes tie in large ranges are sorted by their later words (radix over
 * the key's bytes, not row comparisons): the order must still be (bucket, key, insertion), with
 * duplicates, zero-padding look-alikes ("a" vs "a\0") and keys that end inside a word, and the
 * prefixes must be the plain normalized prefixes again afterwards, also when rows are appended
 * after a sort and the buffer is sorted again.
 */
class StringKeySortTest {
    private static final RowType TYPE =
            RowType.of("k", DataTypes.STRING().notNull(), "n", DataTypes.INT());

    @ParameterizedTest(name = "composite key: {0}")
    @ValueSource(booleans = {false, true})
    void tiedPrefixesSortByLaterWords(boolean composite) {
        KeyFields key = KeyFields.of(TYPE, composite ? new int[] {0, 1} : new int[] {0});
        Random random = new Random(composite ? 2 : 1);
        SortBuffer buffer = new SortBuffer(new MemoryPool(32L << 20, 64 << 10), 2, key);
        List<Entry> model = new ArrayList<>();
        append(buffer, model, random, 20_000, key);
        check(buffer, model, key);
        append(buffer, model, random, 5_000, key);
        check(buffer, model, key);
    }

    private static void append(
            SortBuffer buffer, List<Entry> model, Random random, int rows, KeyFields key) {
        String[] stems = {"customer-", "customer-0000000", "customer-00000000000000000", ""};
        for (int i = 0; i < rows; i++) {
            String stem = stems[random.nextInt(stems.length)];
            String k = stem + random.nextInt(3000);
            int shape = random.nextInt(10);
            if (shape == 0) {
                k = k + "\u0000";
            } else if (shape == 1) {
                k = k + "-" + "x".repeat(random.nextInt(20));
            }
            BinaryRow row = BinaryRowWriter.toRow(TYPE, k, random.nextInt(3));
            int bucket = random.nextInt(2);
            assertThat(buffer.append(0, bucket, row)).isTrue();
            model.add(new Entry(bucket, row, model.size()));
        }
    }

    private static void check(SortBuffer buffer, List<Entry> model, KeyFields key) {
        List<Entry> expected = new ArrayList<>(model);
        expected.sort(
                Comparator.comparingInt(Entry::bucket)
                        .thenComparing(Entry::row, key::compare)
                        .thenComparingInt(Entry::order));
        SortedCursor cursor = buffer.sortedCursor();
        for (Entry e : expected) {
            assertThat(cursor.next()).isTrue();
            assertThat(cursor.bucket()).isEqualTo(e.bucket());
            assertThat(cursor.row()).isEqualTo(e.row());
            assertThat(cursor.prefix()).isEqualTo(key.normalizedPrefix(e.row()));
        }
        assertThat(cursor.next()).isFalse();
    }

    private record Entry(int bucket, BinaryRow row, int order) {}
}
