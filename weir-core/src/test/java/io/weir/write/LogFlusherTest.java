package io.weir.write;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One flush whose file groups end around the flusher's calls of 1,024 rows: every key once, with
 * its latest value, whether its duplicates fall in one call or straddle two, and one file per file
 * group.
 */
class LogFlusherTest {
    private static final RowType TYPE =
            RowType.of("id", DataTypes.BIGINT(), "v", DataTypes.STRING());

    @TempDir Path dir;

    @ParameterizedTest(name = "{0} keys")
    @ValueSource(ints = {1, 1023, 1024, 1025, 2048, 2049, 5000})
    void foldsEveryKeyOfAGroupOnceAcrossCalls(int keys) {
        List<DataFile> files = flushAndCheck(keys, 1);
        assertThat(files).hasSize(1);
        assertThat(files.get(0).recordCount()).isEqualTo(keys);
    }

    /** Three file groups in one flush: each call also stops where the cursor's group changes. */
    @ParameterizedTest(name = "{0} keys")
    @ValueSource(ints = {1025, 2049, 5000})
    void startsAFileAtEachFileGroupWithinACall(int keys) {
        List<DataFile> files = flushAndCheck(keys, 3);
        assertThat(files).hasSize(3);
        assertThat(files.stream().map(DataFile::bucket).sorted().toList()).containsExactly(0, 1, 2);
        assertThat(files.stream().mapToLong(DataFile::recordCount).sum()).isEqualTo(keys);
    }

    /**
     * Writes keys 0..keys-1, then a second version of every third key, flushes once into a table of
     * {@code buckets} buckets, commits, and checks the table holds each key once with its latest
     * value. Returns the flushed files.
     */
    private List<DataFile> flushAndCheck(int keys, int buckets) {
        Table table =
                Tables.create(
                        dir.resolve("t").toString(),
                        new Schema(TYPE, List.of("id"), List.of()),
                        Map.of("bucket", String.valueOf(buckets)));
        Random random = new Random(keys);
        Map<Long, String> model = new TreeMap<>();
        List<DataFile> files;
        try (TableWrite write = table.newWrite().create()) {
            // The sorted buffer holds runs of one and two rows per key, so the runs cross the
            // calls' boundaries at different places for each key count.
            for (long id = 0; id < keys; id++) {
                String v = "a" + random.nextInt(1000);
                write.write(BinaryRowWriter.toRow(TYPE, id, v));
                model.put(id, v);
            }
            for (long id = 0; id < keys; id += 3) {
                String v = "b" + random.nextInt(1000);
                write.write(BinaryRowWriter.toRow(TYPE, id, v));
                model.put(id, v);
            }
            files = write.prepareCommit();
        }
        table.newAppend().addFiles(files).commit();

        List<List<Object>> expected = new ArrayList<>();
        model.forEach((id, v) -> expected.add(List.of(id, v)));
        List<List<Object>> actual =
                new ArrayList<>(Rows.readAll(table.newScan().rows(), TYPE, false));
        actual.sort(Comparator.comparing(row -> (Long) row.get(0)));
        assertThat(actual).isEqualTo(expected);
        return files;
    }
}
