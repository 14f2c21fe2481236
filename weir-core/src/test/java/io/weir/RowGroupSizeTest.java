package io.weir;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.io.FileIO;
import io.weir.io.LocalFileIO;
import io.weir.testing.RowGroups;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code file.row-group-size}: the base files of a compaction and of a bulk insert close their
 * Parquet row groups at the table's size, and read back as the model.
 */
class RowGroupSizeTest {
    private static final RowType TYPE =
            RowType.of("k", DataTypes.BIGINT().notNull(), "s", DataTypes.STRING());

    /**
     * 40,000 rows of 192 random hex characters over 25,000-odd keys: about 5 MB of strings, 2.6 MB
     * as zstd-compressed pages.
     */
    private static final int ROWS = 40_000;

    @TempDir Path dir;

    @Test
    void compactionAndBulkInsertCloseRowGroupsAtTheTablesSize() throws Exception {
        TreeMap<Long, List<Object>> model = new TreeMap<>();
        List<BinaryRow> rows = rows(model);
        Map<String, List<Integer>> counts = new TreeMap<>();
        for (String size : List.of("1 mb", "2 mb", "")) {
            Table compacted = table("compacted" + counts.size(), size);
            try (TableWrite write = compacted.newWrite().create()) {
                for (BinaryRow row : rows) {
                    write.write(row);
                }
                compacted.newAppend().addFiles(write.prepareCommit()).commit();
            }
            compacted.newCompaction().full().execute();
            compacted.refresh();
            assertThat(Rows.readAll(compacted.newScan().rows(), TYPE, false))
                    .containsExactlyInAnyOrderElementsOf(model.values());

            Table bulk = table("bulk" + counts.size(), size);
            try (BulkWrite write =
                    bulk.newBulkWrite().spillDirectory(dir.resolve("spill").toString()).create()) {
                for (BinaryRow row : rows) {
                    write.write(row);
                }
                bulk.newAppend().addFiles(write.prepareCommit()).commit();
            }
            bulk.refresh();
            assertThat(Rows.readAll(bulk.newScan().rows(), TYPE, false))
                    .containsExactlyInAnyOrderElementsOf(model.values());

            long limit = size.isEmpty() ? 32L << 20 : Long.parseLong(size.substring(0, 1)) << 20;
            counts.put(size, List.of(rowGroups(compacted, limit), rowGroups(bulk, limit)));
        }
        // about 2.6 MB of compressed pages: more row groups of 1 MB than of 2 MB, one of 32 MB
        assertThat(counts.get("1 mb")).containsExactly(4, 4);
        assertThat(counts.get("2 mb")).containsExactly(2, 2);
        assertThat(counts.get("")).containsExactly(1, 1);
    }

    @Test
    void aSizeOutsideItsRangeIsRejected() {
        assertThatThrownBy(() -> table("bad", "512 kb"))
                .hasMessageStartingWith("Cannot create table ")
                .hasMessageEndingWith(
                        "/bad: Invalid value '512 kb' for option 'file.row-group-size': must be"
                                + " between 1 mb and 1 gb");
        assertThat(dir.resolve("bad")).doesNotExist();
    }

    private Table table(String name, String rowGroupSize) {
        FileIO io = new LocalFileIO();
        Map<String, String> options = new TreeMap<>(Map.of("bucket", "1"));
        if (!rowGroupSize.isEmpty()) {
            options.put("file.row-group-size", rowGroupSize);
        }
        return Tables.create(
                io,
                dir.resolve(name).toString(),
                new Schema(TYPE, List.of("k"), List.of()),
                options);
    }

    /** Rows of random keys, some repeated: the model keeps the last value of each key. */
    private static List<BinaryRow> rows(TreeMap<Long, List<Object>> model) {
        Random random = new Random(5);
        List<BinaryRow> rows = new ArrayList<>();
        for (int n = 0; n < ROWS; n++) {
            long k = random.nextInt(ROWS);
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < 12; i++) {
                s.append(Long.toHexString(random.nextLong() | Long.MIN_VALUE));
            }
            BinaryRow row = BinaryRowWriter.toRow(TYPE, k, s.toString());
            rows.add(row);
            model.put(k, Rows.values(row, TYPE));
        }
        return rows;
    }

    /**
     * The row groups of the table's files (all base files), each checked to hold no more than
     * {@code limit} bytes of pages as stored (a row group is closed by the size of its buffered
     * pages, as parquet-java closes one).
     */
    private static int rowGroups(Table table, long limit) {
        assertThat(table.currentSnapshot().files())
                .extracting(DataFile::kind)
                .containsOnly(FileKind.BASE);
        List<BlockMetaData> rowGroups = RowGroups.ofBaseFiles(table);
        assertThat(rowGroups)
                .allSatisfy(g -> assertThat(g.getCompressedSize()).isLessThanOrEqualTo(limit));
        return rowGroups.size();
    }
}
