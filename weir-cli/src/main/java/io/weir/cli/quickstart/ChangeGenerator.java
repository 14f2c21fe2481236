package io.weir.cli.quickstart;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;

/**
 * Turns change number {@code i} into an order change: an upsert of a pseudo-random order, or (one
 * in ten) a delete. Deterministic, so the expected table is known by replaying the numbers in
 * order.
 */
final class ChangeGenerator implements MapFunction<Long, RowData> {
    static final String[] STATUSES = {"NEW", "PAID", "SHIPPED", "DELIVERED"};

    private final int keys;

    ChangeGenerator(int keys) {
        this.keys = keys;
    }

    static long orderId(long i, int keys) {
        return Math.floorMod(mix(i), keys);
    }

    static boolean isDelete(long i) {
        return Math.floorMod(mix(i ^ 0x5DEECE66DL), 10) == 0;
    }

    static String customer(long i) {
        return "customer-" + Math.floorMod(mix(i + 1), 997);
    }

    static long amountCents(long i) {
        return Math.floorMod(mix(i + 2), 100_000);
    }

    static String status(long i) {
        return STATUSES[(int) Math.floorMod(mix(i + 3), STATUSES.length)];
    }

    @Override
    public RowData map(Long i) {
        long id = orderId(i, keys);
        if (isDelete(i)) {
            return GenericRowData.ofKind(RowKind.DELETE, id, null, null, null);
        }
        return GenericRowData.ofKind(
                RowKind.UPDATE_AFTER,
                id,
                StringData.fromString(customer(i)),
                amountCents(i),
                StringData.fromString(status(i)));
    }

    /** A 64-bit mix (SplitMix64's finalizer): well spread, cheap, the same everywhere. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
