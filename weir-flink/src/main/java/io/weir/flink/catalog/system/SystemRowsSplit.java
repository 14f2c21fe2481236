package io.weir.flink.catalog.system;

import org.apache.flink.api.connector.source.SourceSplit;

/**
 * The one split of a system table read: which table, which system table, and how many rows were
 * emitted before the last checkpoint (skipped after a restore).
 */
record SystemRowsSplit(SystemTable kind, String location, long emitted) implements SourceSplit {
    @Override
    public String splitId() {
        return kind.suffix();
    }

    SystemRowsSplit withEmitted(long count) {
        return new SystemRowsSplit(kind, location, count);
    }
}
