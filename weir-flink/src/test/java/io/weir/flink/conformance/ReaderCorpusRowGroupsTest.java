package io.weir.flink.conformance;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Schema;
import io.weir.testing.RowGroups;
import io.weir.types.DataTypes;

import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Base files of several row groups in the corpus ({@link ReaderCorpus}). */
class ReaderCorpusRowGroupsTest {
    @RegisterExtension static final MiniClusterExtension CLUSTER = ReaderCorpus.cluster();

    @Test
    void writesATableWhoseBaseFileHasSeveralRowGroups() throws Exception {
        ReaderCorpus.write(1, root -> rowGroups(root, new Random(31)));
    }

    /**
     * {@code file.row-group-size} = 1 mb: a keyed table of 24,000 upserts of 400 random hex
     * characters over about 8,000 keys (some 3 MB that Snappy does not shrink), compacted into one
     * base file of several row groups, then upserts and deletes in a log after it.
     */
    private static void rowGroups(Path root, Random random) throws Exception {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("n", DataTypes.INT())
                        .column("s", DataTypes.STRING())
                        .primaryKey("id")
                        .build();
        CorpusTable t =
                new CorpusTable(
                        root,
                        "keyed_row_groups",
                        schema,
                        Map.of(
                                "bucket", "1",
                                "file.compression", "snappy",
                                "file.row-group-size", "1 mb"));
        t.overrides.put("id", r -> (long) r.nextInt(1_000_000));
        t.overrides.put(
                "s",
                r -> {
                    StringBuilder s = new StringBuilder(400);
                    while (s.length() < 400) {
                        s.append(Long.toHexString(r.nextLong() | Long.MIN_VALUE));
                    }
                    return s.toString();
                });
        t.filters = 2;
        t.randomCommit(random, 24_000, 24_000, 0);
        t.compact();
        assertThat(t.table.currentSnapshot().files())
                .extracting(DataFile::kind)
                .containsOnly(FileKind.BASE);
        assertThat(RowGroups.ofBaseFiles(t.table))
                .as("row groups of the compacted base")
                .hasSizeGreaterThanOrEqualTo(3);
        t.randomCommit(random, 200, 24_000, 4);
        t.finish();
    }
}
