package io.weir.flink.sink;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A deterministic stream of changes, a function of a sequence number only (so a replay after a
 * restore emits the same changes), and the independent model of what a table should hold after
 * them.
 *
 * <p>Keyed: sequence {@code s} touches key {@code s * 7919 mod keys} (a key always in the same
 * partition); by {@code s mod 10}: 0, 2, 4 insert, 3 and 8 delete, 6 is an update-before (which a
 * keyed table ignores), the rest update-after. Append: sequence {@code s} is one inserted row.
 */
final class Changes {
    private Changes() {}

    static long id(long seq, int keys) {
        return (seq * 7919) % keys;
    }

    static String dt(long id) {
        return "2024-01-0" + (id % 3 + 1);
    }

    static String name(long seq) {
        return seq % 2 == 0 ? "n" + seq % 1000 : "a longer name " + seq;
    }

    static RowKind kind(long seq) {
        return switch ((int) (seq % 10)) {
            case 0, 2, 4 -> RowKind.INSERT;
            case 3, 8 -> RowKind.DELETE;
            case 6 -> RowKind.UPDATE_BEFORE;
            default -> RowKind.UPDATE_AFTER;
        };
    }

    static RowData keyed(long seq, int keys) {
        long id = id(seq, keys);
        return SinkTestTables.row(kind(seq), id, dt(id), seq, name(seq));
    }

    static RowData append(long seq) {
        return SinkTestTables.row(RowKind.INSERT, seq, dt(seq), seq * 3, name(seq));
    }

    /** The keyed table after sequences {@code 0 .. n-1}, applied in order, sorted like a scan. */
    static List<List<Object>> keyedModel(long n, int keys) {
        Map<List<Object>, List<Object>> rows = new HashMap<>();
        for (long s = 0; s < n; s++) {
            long id = id(s, keys);
            List<Object> key = List.of(id, dt(id));
            switch (kind(s)) {
                    // A -U retracts its key, as a -D does, unless a later row adds it again.
                case DELETE, UPDATE_BEFORE -> rows.remove(key);
                default -> rows.put(key, List.of(id, dt(id), s, name(s)));
            }
        }
        return sorted(new ArrayList<>(rows.values()));
    }

    /** The append-only table after sequences {@code 0 .. n-1}: every row exactly once. */
    static List<List<Object>> appendModel(long n) {
        List<List<Object>> rows = new ArrayList<>();
        for (long s = 0; s < n; s++) {
            rows.add(List.of(s, dt(s), s * 3, name(s)));
        }
        return sorted(rows);
    }

    /** Orders rows by (id, dt, v): a multiset comparison by list equality. */
    static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(
                (a, b) -> {
                    int c = Long.compare((Long) a.get(0), (Long) b.get(0));
                    if (c == 0) {
                        c = ((String) a.get(1)).compareTo((String) b.get(1));
                    }
                    return c != 0 ? c : Long.compare((Long) a.get(2), (Long) b.get(2));
                });
        return copy;
    }

    /**
     * Sequence number to change, slowed to about {@code perMilli} rows per millisecond so that a
     * job spans many checkpoints.
     */
    static final class Generator implements MapFunction<Long, RowData> {
        private final boolean keyed;
        private final int keys;
        private final int perMilli;

        Generator(boolean keyed, int keys, int perMilli) {
            this.keyed = keyed;
            this.keys = keys;
            this.perMilli = perMilli;
        }

        @Override
        public RowData map(Long seq) throws Exception {
            if (perMilli > 0 && seq % perMilli == 0) {
                Thread.sleep(1);
            }
            return keyed ? keyed(seq, keys) : append(seq);
        }
    }
}
