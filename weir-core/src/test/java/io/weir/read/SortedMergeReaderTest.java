package io.weir.read;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.KeyFields;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.exceptions.CorruptFileException;
import io.weir.merge.MergeFunctions;
import io.weir.testing.ListRowReader;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SortedMergeReaderTest {
    private static final RowType TYPE =
            RowType.of(
                    "k", DataTypes.STRING().notNull(),
                    "v", DataTypes.BIGINT(),
                    "seq", DataTypes.INT());
    private static final KeyFields KEY = KeyFields.of(TYPE, new int[] {0});
    private static final KeyFields SEQ = KeyFields.of(TYPE, new int[] {2});

    /**
     * A key whose prefix decides it, with negative values: the merge then orders and groups the
     * records by their prefixes alone, never comparing rows.
     */
    private static final RowType LONG_KEYED =
            RowType.of(
                    "k", DataTypes.BIGINT().notNull(),
                    "v", DataTypes.BIGINT(),
                    "seq", DataTypes.INT());

    private static final KeyFields LONG_KEY = KeyFields.of(LONG_KEYED, new int[] {0});

    /** One record as the model sees it: which source, where in it, and its content. */
    private record Rec(
            int source, int position, String key, long value, Integer seq, RowKind kind) {}

    @Test
    void latestRecordWinsAndDeletesRemoveKeys() {
        for (int seed = 0; seed < 200; seed++) {
            checkEveryWay(seed, false, false);
        }
    }

    @Test
    void greatestSequenceFieldWinsTiesGoToTheLatest() {
        for (int seed = 0; seed < 200; seed++) {
            checkEveryWay(seed, true, false);
        }
    }

    @Test
    void winningDeletesAreReturnedWhenKept() {
        for (int seed = 0; seed < 100; seed++) {
            checkEveryWay(seed, true, true);
            checkEveryWay(seed, false, true);
        }
    }

    /** String and integral keys, from sources whose rows stay valid and from ones that reuse. */
    private static void checkEveryWay(int seed, boolean useSequence, boolean keepDeletes) {
        for (boolean longKey : new boolean[] {false, true}) {
            for (boolean reusing : new boolean[] {false, true}) {
                check(seed, useSequence, keepDeletes, longKey, reusing);
            }
        }
    }

    @Test
    void aSourceOutOfKeyOrderIsACorruptFile() {
        // Integral keys (the prefix decides), and string keys that share their first 8 bytes (only
        // the full comparison sees the order). Equal keys in one source stay allowed.
        assertCorrupt(LONG_KEY, List.of(longRow(1), longRow(3), longRow(3), longRow(2)));
        assertCorrupt(KEY, List.of(row("a-shared-prefix-2"), row("a-shared-prefix-1")));
    }

    /** Merges a base of the first row and a log of {@code rows}, which are out of key order. */
    private static void assertCorrupt(KeyFields key, List<BinaryRow> rows) {
        List<RowReader> sources =
                List.of(new ListRowReader(List.of(rows.get(0))), ListRowReader.reusing(rows));
        try (SortedMergeReader reader =
                new SortedMergeReader(
                        sources,
                        List.of("/t/base-0.parquet", "/t/log-1.log"),
                        key,
                        MergeFunctions.deduplicate(null, 3, false),
                        false)) {
            assertThatThrownBy(
                            () -> {
                                while (reader.next()) {
                                    // on to the record out of order
                                }
                            })
                    .isInstanceOf(CorruptFileException.class)
                    .hasMessage(
                            "Corrupt file /t/log-1.log: a record's primary key is below the"
                                    + " record before it: the file's records are not in key order"
                                    + " (docs/format.md §4, §5.2)");
        }
    }

    private static BinaryRow longRow(long key) {
        return BinaryRowWriter.toRow(LONG_KEYED, RowKind.INSERT, key, 0L, null);
    }

    private static BinaryRow row(String key) {
        return BinaryRowWriter.toRow(TYPE, RowKind.INSERT, key, 1L, null);
    }

    @Test
    void closesEverySource() {
        List<ListRowReader> sources =
                List.of(new ListRowReader(List.of()), new ListRowReader(List.of()));
        SortedMergeReader reader =
                new SortedMergeReader(
                        new ArrayList<>(sources),
                        List.of("/t/a.log", "/t/b.log"),
                        KEY,
                        MergeFunctions.deduplicate(null, 3, false),
                        false);
        assertThat(reader.next()).isFalse();
        reader.close();
        assertThat(sources).allMatch(ListRowReader::isClosed);
    }

    private static void check(
            int seed, boolean useSequence, boolean keepDeletes, boolean longKey, boolean reusing) {
        Random random = new Random(seed);
        int sourceCount = 1 + random.nextInt(5);
        List<RowReader> sources = new ArrayList<>();
        List<Rec> all = new ArrayList<>();
        for (int s = 0; s < sourceCount; s++) {
            List<Rec> recs = new ArrayList<>();
            int n = random.nextInt(30);
            for (int i = 0; i < n; i++) {
                // Keys beyond 8 bytes that share their first 8 bytes: the merge's key prefixes are
                // equal and only the full comparison orders them.
                String key =
                        longKey
                                ? String.format("%03d", random.nextInt(20) - 5)
                                : (random.nextBoolean() ? "key-" : "a-shared-prefix-")
                                        + random.nextInt(20);
                RowKind kind = RowKind.values()[random.nextInt(4)];
                Integer seq = random.nextInt(8) == 0 ? null : random.nextInt(5);
                recs.add(new Rec(s, 0, key, random.nextLong(), seq, kind));
            }
            // Sources are sorted by key; equal keys keep their order (a stable sort).
            recs.sort(
                    longKey
                            ? Comparator.comparingLong(r -> Long.parseLong(r.key))
                            : Comparator.comparing(Rec::key));
            List<BinaryRow> rows = new ArrayList<>();
            for (int i = 0; i < recs.size(); i++) {
                Rec r = recs.get(i);
                Rec placed = new Rec(s, i, r.key, r.value, r.seq, r.kind);
                all.add(placed);
                rows.add(
                        longKey
                                ? BinaryRowWriter.toRow(
                                        LONG_KEYED, r.kind, Long.parseLong(r.key), r.value, r.seq)
                                : BinaryRowWriter.toRow(TYPE, r.kind, r.key, r.value, r.seq));
            }
            sources.add(reusing ? ListRowReader.reusing(rows) : new ListRowReader(rows));
        }

        Map<String, Rec> winners =
                new TreeMap<>(
                        longKey
                                ? Comparator.comparingLong(Long::parseLong)
                                : Comparator.naturalOrder());
        for (Rec r : all) {
            Rec current = winners.get(r.key);
            if (current == null || wins(r, current, useSequence)) {
                winners.put(r.key, r);
            }
        }
        List<String> expected = new ArrayList<>();
        for (Rec r : winners.values()) {
            boolean retract = r.kind == RowKind.DELETE || r.kind == RowKind.UPDATE_BEFORE;
            if (!retract || keepDeletes) {
                expected.add(r.kind.shortString() + r.key + "=" + r.value + "@" + r.seq);
            }
        }

        List<String> actual = new ArrayList<>();
        try (SortedMergeReader reader =
                new SortedMergeReader(
                        sources,
                        sources.stream().map(r -> "/t/source.log").toList(),
                        longKey ? LONG_KEY : KEY,
                        MergeFunctions.deduplicate(useSequence ? SEQ : null, 3, false),
                        keepDeletes)) {
            while (reader.next()) {
                BinaryRow row = reader.row();
                actual.add(
                        row.rowKind().shortString()
                                + (longKey
                                        ? String.format("%03d", row.getLong(0))
                                        : row.getString(0))
                                + "="
                                + row.getLong(1)
                                + "@"
                                + (row.isNullAt(2) ? null : row.getInt(2)));
            }
        }
        assertThat(actual)
                .as("seed %d, long key %s, reusing %s", seed, longKey, reusing)
                .isEqualTo(expected);
    }

    /**
     * Whether {@code r} beats {@code current}: later in (source, position) unless the seq says
     * otherwise.
     */
    private static boolean wins(Rec r, Rec current, boolean useSequence) {
        boolean later =
                r.source > current.source
                        || (r.source == current.source && r.position > current.position);
        if (!useSequence) {
            return later;
        }
        int c = compareNullsFirst(r.seq, current.seq);
        return c > 0 || (c == 0 && later);
    }

    private static int compareNullsFirst(Integer a, Integer b) {
        if (a == null || b == null) {
            return a == b ? 0 : (a == null ? -1 : 1);
        }
        return Integer.compare(a, b);
    }
}
