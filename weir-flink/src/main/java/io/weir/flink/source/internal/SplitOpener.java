package io.weir.flink.source.internal;

import io.weir.IncrementalScan;
import io.weir.Table;
import io.weir.TableScan;
import io.weir.Tables;
import io.weir.flink.source.WeirSplit;
import io.weir.read.RowReader;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a reader subtask keeps across its split readers: Flink closes an idle fetcher with its split
 * reader and creates a new one for the next split, but the table should be loaded once and a limit
 * counts the rows of all splits.
 */
final class SplitOpener {
    private final ReadSpec spec;
    private final long limit;
    private final AtomicLong fetched = new AtomicLong();
    private TableScan scan;
    private IncrementalScan changes;

    SplitOpener(ReadSpec spec) {
        this.spec = spec;
        this.limit = spec.bounded() && spec.limit() >= 0 ? spec.limit() : Long.MAX_VALUE;
    }

    String location() {
        return spec.location();
    }

    /** Counts a fetched row against the limit; false if the limit was already reached. */
    boolean tryFetch() {
        if (limit == Long.MAX_VALUE) {
            return true;
        }
        return fetched.getAndUpdate(n -> n < limit ? n + 1 : n) < limit;
    }

    boolean limitReached() {
        return limit != Long.MAX_VALUE && fetched.get() >= limit;
    }

    synchronized RowReader open(WeirSplit split) {
        if (scan == null) {
            Table table = Tables.load(spec.io().get(), spec.location());
            TableScan s = table.newScan().filter(spec.filter());
            IncrementalScan c = table.newIncrementalScan().filter(spec.filter());
            if (spec.columns() != null) {
                s = s.select(spec.columns());
                c = c.select(spec.columns());
            }
            scan = s;
            changes = c;
        }
        return split.isSnapshot() ? scan.open(split.scanTask()) : changes.open(split.changeTask());
    }
}
