package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.io.LocalFileIO;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Merge-on-read and compaction of a deduplicating table whose log files have many 4 KB blocks, so
 * that a key's latest record is often the last of its block when the merge moves that file's reader
 * on to the next block (whose bytes replace the block's). Every scan, after ingest commits and
 * after full and incremental compactions into either run format, must return exactly the model's
 * rows.
 */
class SmallLogBlocksMergeTest {
    private static final RowType TYPE =
            RowType.of(
                    "k", DataTypes.BIGINT().notNull(),
                    "v", DataTypes.BIGINT(),
                    "s", DataTypes.STRING());

    @TempDir Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"log", "parquet"})
    void latestRecordsSurviveBlockBoundariesOfEverySource(String runFormat) {
        Table table =
                Tables.create(
                        new LocalFileIO(),
                        dir.resolve("t").toString(),
                        new Schema(TYPE, List.of("k"), List.of()),
                        Map.of(
                                "bucket", "2",
                                "log.block-size", "4 kb",
                                "compaction.max-log-files", "3",
                                "compaction.run-format", runFormat));
        Random random = new Random(23);
        TreeMap<Long, List<Object>> model = new TreeMap<>();
        for (int c = 0; c < 10; c++) {
            try (TableWrite write = table.newWrite().create()) {
                for (int n = 0; n < 4_000; n++) {
                    long k = random.nextInt(3_000);
                    if (random.nextInt(8) == 0) {
                        write.write(BinaryRowWriter.toRow(TYPE, RowKind.DELETE, k, null, null));
                        model.remove(k);
                        continue;
                    }
                    Object[] values = {
                        k, (long) c * 10_000 + n, "c" + c + "-" + random.nextInt(100)
                    };
                    write.write(BinaryRowWriter.toRow(TYPE, values));
                    model.put(k, Rows.values(BinaryRowWriter.toRow(TYPE, values), TYPE));
                }
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
            if (c == 3) {
                table.newCompaction().full().execute();
            } else if (c == 6 || c == 8) {
                table.newCompaction().execute(); // due groups: whole, or their newest runs
            }
            table.refresh();
            assertThat(Rows.readAll(table.newScan().rows(), TYPE, false))
                    .as("after commit %d", c)
                    .containsExactlyInAnyOrderElementsOf(model.values());
        }
    }
}
