package io.weir.flink.catalog.system;

import org.apache.flink.api.connector.source.SourceSplit;

import java.util.Map;

/**
 * The one split of a system table read: which table, which system table (and its SQL name, for
 * messages), the query's options (which snapshot), and how many rows were emitted before the last
 * checkpoint (skipped after a restore).
 */
record SystemRowsSplit(
        SystemTable kind, String name, String location, Map<String, String> options, long emitted)
        implements SourceSplit {
    SystemRowsSplit {
        options = Map.copyOf(options);
    }

    @Override
    public String splitId() {
        return kind.suffix();
    }

    SystemRowsSplit withEmitted(long count) {
        return new SystemRowsSplit(kind, name, location, options, count);
    }
}
