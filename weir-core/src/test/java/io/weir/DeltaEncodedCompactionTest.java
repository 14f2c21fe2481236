package io.weir;

import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.data.Timestamp;
import io.weir.io.FileIO;
import io.weir.io.LocalFileIO;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compaction of a keyed table whose integer columns are mostly distinct and far from random, so
 * that its base files hold DELTA_BINARY_PACKED chunks (docs/format.md §5.2): full and incremental
 * rounds over upserts and deletes leave exactly the model's rows, read back through the merge of
 * bases and logs; with {@code file.delta-encoding}=false the same, and no such chunk.
 */
class DeltaEncodedCompactionTest {
    private static final RowType TYPE =
            RowType.of(
                    "k", DataTypes.BIGINT().notNull(),
                    "i", DataTypes.INT(),
                    "d", DataTypes.DATE(),
                    "ts", DataTypes.TIMESTAMP(6),
                    "amount", DataTypes.DECIMAL(12, 2),
                    "s", DataTypes.STRING());

    @TempDir Path dir;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void compactedBasesOfDeltaEncodedIntegersReadAsTheModel(boolean deltaEncoding)
            throws Exception {
        FileIO io = new LocalFileIO();
        String location = dir.resolve("t").toString();
        Table table =
                Tables.create(
                        io,
                        location,
                        new Schema(TYPE, List.of("k"), List.of()),
                        Map.of(
                                "bucket",
                                "2",
                                "file.delta-encoding",
                                String.valueOf(deltaEncoding)));
        Random random = new Random(17);
        TreeMap<Long, List<Object>> model = new TreeMap<>();
        for (int c = 0; c < 8; c++) {
            try (TableWrite write = table.newWrite().create()) {
                for (int n = 0; n < 3_000; n++) {
                    long k = 7L * random.nextInt(20_000) - 50_000;
                    if (random.nextInt(10) == 0) {
                        write.write(
                                BinaryRowWriter.toRow(
                                        TYPE, RowKind.DELETE, k, null, null, null, null, null));
                        model.remove(k);
                        continue;
                    }
                    Object[] values = {
                        k,
                        random.nextInt(8) == 0 ? null : random.nextInt(5_000_000),
                        18_000 + random.nextInt(1_000_000),
                        new Timestamp(
                                1_700_000_000_000L + random.nextInt(500_000_000),
                                1000 * random.nextInt(1000)),
                        BigDecimal.valueOf(random.nextInt(100_000_000), 2),
                        "s" + random.nextInt(1000)
                    };
                    write.write(BinaryRowWriter.toRow(TYPE, values));
                    model.put(k, Rows.values(BinaryRowWriter.toRow(TYPE, values), TYPE));
                }
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
            if (c == 2) {
                table.newCompaction().full().execute();
            } else if (c == 5) {
                table.newCompaction().execute(); // the due groups, whole or their newest runs
            }
            table.refresh();
            assertThat(Rows.readAll(table.newScan().rows(), TYPE, false))
                    .as("after commit %d", c)
                    .containsExactlyInAnyOrderElementsOf(model.values());
        }

        Set<String> deltaColumns = new HashSet<>();
        for (DataFile f : table.currentSnapshot().files()) {
            if (f.kind() == FileKind.BASE) {
                deltaColumns.addAll(deltaColumns(Path.of(location, f.path())));
            }
        }
        if (deltaEncoding) {
            assertThat(deltaColumns).containsExactlyInAnyOrder("k", "i", "d", "ts", "amount");
        } else {
            assertThat(deltaColumns).isEmpty();
        }
    }

    private static List<String> deltaColumns(Path file) throws Exception {
        List<String> columns = new ArrayList<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            for (BlockMetaData rowGroup : reader.getRowGroups()) {
                for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
                    if (chunk.getEncodings().contains(Encoding.DELTA_BINARY_PACKED)) {
                        columns.add(chunk.getPath().toDotString());
                    }
                }
            }
        }
        return columns;
    }
}
