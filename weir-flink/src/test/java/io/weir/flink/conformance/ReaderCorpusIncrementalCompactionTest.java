package io.weir.flink.conformance;

import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** The incrementally compacted tables of the corpus ({@link ReaderCorpus}). */
class ReaderCorpusIncrementalCompactionTest {
    @RegisterExtension static final MiniClusterExtension CLUSTER = ReaderCorpus.cluster();

    @Test
    void writesIncrementallyCompactedTables() throws Exception {
        ReaderCorpus.write(2, ReaderCorpusIncrementalCompactionTest::write);
    }

    private static void write(Path root) throws Exception {
        // Incremental compaction (docs/format.md §6.3): the newest logs merged in their place, as
        // one log or as base files plus a log of the deletes, with the sequence field; a random
        // of its own (ReaderCorpusTest).
        Random incremental = new Random(29);
        for (String format : List.of("log", "parquet")) {
            CorpusTable t =
                    new CorpusTable(
                            root,
                            "keyed_incremental_" + format,
                            ReaderCorpus.keyedWithSequenceField(),
                            Map.of(
                                    "bucket",
                                    "1",
                                    "sequence.field",
                                    "ver",
                                    "compaction.run-format",
                                    format));
            t.filters = 1;
            t.randomCommit(incremental, 1200, 300, 0);
            t.compact();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 3; i++) {
                    t.randomCommit(incremental, 20, 300, 3);
                }
                t.compactIncrementally();
            }
            t.randomCommit(incremental, 20, 300, 3);
            t.finish();
        }
    }
}
