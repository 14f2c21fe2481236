package io.weir.flink.compaction;

import io.weir.RemoveOrphanFilesResult;
import io.weir.Table;
import io.weir.Tables;
import io.weir.io.LocalFileIO;
import io.weir.testing.ForwardingFileIO;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local file system that runs an orphan removal with a cutoff in the future (every unreferenced
 * file counts as old, as for a compaction slower than the cutoff) right before each COMPACT commit
 * file is written: after the commit checked that its files exist, where, without the compaction's
 * writer lease, the removal deletes its outputs and the commit publishes files that do not exist.
 * Counts the removals and the files they kept in flight per table (tasks run in this JVM).
 */
public final class CleanBeforeCompactionCommitIO extends ForwardingFileIO {
    private static final Map<String, AtomicLong> CLEANS = new ConcurrentHashMap<>();
    private static final Map<String, AtomicLong> KEPT = new ConcurrentHashMap<>();
    private static final Map<String, AtomicLong> LEASED = new ConcurrentHashMap<>();

    private final String location;

    public CleanBeforeCompactionCommitIO(String location) {
        this.location = location;
    }

    /** Orphan removals run before a compaction commit file of the table. */
    public static long cleans(String location) {
        return CLEANS.getOrDefault(location, new AtomicLong()).get();
    }

    /** Unreferenced files those removals kept because a live writer lease covered them. */
    public static long kept(String location) {
        return KEPT.getOrDefault(location, new AtomicLong()).get();
    }

    /** Of those removals, the ones that found a live compaction lease ({@code compaction-*}). */
    public static long leased(String location) {
        return LEASED.getOrDefault(location, new AtomicLong()).get();
    }

    @Override
    public boolean writeIfAbsent(String path, byte[] content) throws IOException {
        if (path.contains("/_weir/commits/")
                && new String(content, StandardCharsets.UTF_8).contains("\"kind\" : \"COMPACT\"")) {
            Table table = Tables.load(new LocalFileIO(), location);
            long now = System.currentTimeMillis();
            if (table.writerLeases().list().stream()
                    .anyMatch(l -> l.writerId().startsWith("compaction-") && l.isLive(now))) {
                LEASED.computeIfAbsent(location, k -> new AtomicLong()).incrementAndGet();
            }
            RemoveOrphanFilesResult result =
                    table.removeOrphanFiles()
                            .olderThan(System.currentTimeMillis() + 3_600_000)
                            .execute();
            CLEANS.computeIfAbsent(location, k -> new AtomicLong()).incrementAndGet();
            KEPT.computeIfAbsent(location, k -> new AtomicLong()).addAndGet(result.inFlightFiles());
        }
        return super.writeIfAbsent(path, content);
    }
}
