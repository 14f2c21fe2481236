package io.weir.base;

import io.weir.Schema;
import io.weir.io.LocalFileIO;
import io.weir.options.BaseFileCompression;
import io.weir.types.DataTypes;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Readers and writers of base files hand their large arrays on ({@link LargeArrays}): a reader when
 * it moves to the next row group, a writer when its file is written. Files read and written at the
 * same time, as a compaction does, must still see only their own bytes: the rows read are the
 * model's, and the files written read back as written.
 */
class BaseFileArrayReuseTest {
    private static final Schema SCHEMA =
            Schema.builder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("payload", DataTypes.STRING())
                    .primaryKey("id")
                    .build();

    /**
     * The inputs' row groups: mostly an incompressible string chunk, of 0.75, 1.5 and 3 MB, so that
     * the readers' chunks take arrays of three sizes while the output's page slabs grow through the
     * same sizes.
     */
    private static final long[] INPUT_ROW_GROUPS = {768 << 10, 1536 << 10, 3 << 20};

    private static final BaseFileWriteOptions OUTPUT =
            new BaseFileWriteOptions(BaseFileCompression.SNAPPY, 16 << 20, 64 << 10);

    @TempDir Path dir;
    private final LocalFileIO io = new LocalFileIO();
    private final Random random = new Random(42);

    @BeforeEach
    @AfterEach
    void empty() {
        LargeArrays.clear();
    }

    @Test
    void filesReadAndWrittenTogetherKeepTheirOwnBytes() {
        List<List<Object[]>> models = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            List<Object[]> rows = rows(f, 6_000);
            models.add(rows);
            paths.add(
                    write(
                            "in-" + f,
                            rows,
                            new BaseFileWriteOptions(
                                    BaseFileCompression.SNAPPY, INPUT_ROW_GROUPS[f], 64 << 10)));
        }
        assertThat(LargeArrays.keptBytes()).as("the writers' slabs were given back").isPositive();

        List<BaseFileReader> readers = new ArrayList<>();
        for (String path : paths) {
            readers.add(new BaseFileReader(io.newInputFile(path), SCHEMA.rowType()));
        }
        // Read the files in turn, a row at a time, and write what is read into a new file, as a
        // merge of several inputs into one output does.
        List<Object[]> written = new ArrayList<>();
        String outPath = dir.resolve("out.parquet").toString();
        BaseFileWriter out = new BaseFileWriter(io.newOutputFile(outPath), SCHEMA, OUTPUT);
        int[] next = new int[readers.size()];
        boolean more = true;
        while (more) {
            more = false;
            for (int f = 0; f < readers.size(); f++) {
                BaseFileReader reader = readers.get(f);
                if (next[f] < models.get(f).size()) {
                    assertThat(reader.next()).isTrue();
                    Object[] expected = models.get(f).get(next[f]++);
                    assertThat(AllTypes.comparable(reader.row(), SCHEMA.rowType()))
                            .as("row %d of file %d", next[f] - 1, f)
                            .isEqualTo(AllTypes.comparable(expected));
                    out.write(reader.row());
                    written.add(expected);
                    more = true;
                } else {
                    assertThat(reader.next()).isFalse();
                }
            }
        }
        out.close();
        readers.forEach(BaseFileReader::close);
        assertThat(LargeArrays.keptBytes()).as("the readers' chunks were given back").isPositive();

        try (BaseFileReader reader =
                new BaseFileReader(io.newInputFile(outPath), SCHEMA.rowType())) {
            for (int k = 0; k < written.size(); k++) {
                assertThat(reader.next()).isTrue();
                assertThat(AllTypes.comparable(reader.row(), SCHEMA.rowType()))
                        .as("row %d of the merged file", k)
                        .isEqualTo(AllTypes.comparable(written.get(k)));
            }
            assertThat(reader.next()).isFalse();
        }
    }

    private List<Object[]> rows(int file, int count) {
        List<Object[]> rows = new ArrayList<>();
        StringBuilder s = new StringBuilder();
        for (int k = 0; k < count; k++) {
            s.setLength(0);
            for (int c = 0; c < 600; c++) {
                s.append((char) ('!' + random.nextInt(90)));
            }
            // keys interleaved across the files, so that reading them in turn writes them in order
            rows.add(new Object[] {3L * k + file, k % 97 == 0 ? null : s.toString()});
        }
        return rows;
    }

    private String write(String name, List<Object[]> rows, BaseFileWriteOptions options) {
        String path = dir.resolve(name + ".parquet").toString();
        BaseFileWriter writer = new BaseFileWriter(io.newOutputFile(path), SCHEMA, options);
        for (Object[] values : rows) {
            writer.write(AllTypes.toRow(SCHEMA.rowType(), values));
        }
        writer.close();
        return path;
    }
}
