package io.weir.bench.e2e.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Reads a table's history after the ingestion, through the sink's own API, into a {@link
 * CompactionHistory} (docs/benchmark.md, "Compaction on"): {@link WeirHistory}, {@link
 * PaimonHistory}, {@link HudiHistory}. Not timed: it runs after the ingestion's figures were taken.
 */
final class TableHistory {
    private TableHistory() {}

    /** The history of the table, or null for a sink without one (or a Hudi table whose is gone). */
    static CompactionHistory read(SinkTable table) {
        Path dir = table.tableDir();
        return switch (table.kind()) {
            case WEIR -> WeirHistory.read(dir);
            case PAIMON -> PaimonHistory.read(dir);
            case HUDI -> HudiHistory.read(dir);
            default -> null;
        };
    }

    /** Regular files under {@code dir}, data and metadata (0 if it does not exist). */
    static long filesUnder(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
