package io.weir.base;

import io.weir.exceptions.ValidationException;
import io.weir.io.LocalFileIO;
import io.weir.options.BaseFileCompression;
import io.weir.types.DataTypes;
import io.weir.types.Field;
import io.weir.types.RowType;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BaseFileProjectionTest {
    @TempDir Path dir;
    private final LocalFileIO io = new LocalFileIO();
    private final List<Object[]> rows = AllTypes.rows(120);
    private String path;

    @BeforeEach
    void writeFile() {
        path = dir.resolve("base.parquet").toString();
        BaseFileWriter writer =
                new BaseFileWriter(
                        io.newOutputFile(path),
                        AllTypes.SCHEMA,
                        new BaseFileWriteOptions(BaseFileCompression.SNAPPY, 4 << 20, 1024));
        for (Object[] values : rows) {
            writer.write(AllTypes.toRow(AllTypes.ROW_TYPE, values));
        }
        writer.close();
    }

    @Test
    void readsASubsetOfColumnsInTheRequestedOrder() {
        RowType type = AllTypes.ROW_TYPE;
        int[] projection = {
            type.indexOf("s"),
            type.indexOf("id"),
            type.indexOf("ts9"),
            type.indexOf("dec38"),
            type.indexOf("f"),
            type.indexOf("vb"),
            type.indexOf("ti")
        };
        List<List<Object>> read = readAll(type, projection);

        assertThat(read).hasSize(rows.size());
        for (int k = 0; k < rows.size(); k++) {
            assertThat(read.get(k))
                    .as("row %d", k)
                    .isEqualTo(AllTypes.comparable(rows.get(k), projection));
        }
    }

    @Test
    void readsASingleColumn() {
        int[] projection = {AllTypes.ROW_TYPE.indexOf("uniq")};
        List<List<Object>> read = readAll(AllTypes.ROW_TYPE, projection);
        for (int k = 0; k < rows.size(); k++) {
            assertThat(read.get(k)).isEqualTo(AllTypes.comparable(rows.get(k), projection));
        }
    }

    @Test
    void emptyProjectionYieldsOneEmptyRowPerRecord() {
        try (BaseFileReader reader =
                new BaseFileReader(io.newInputFile(path), AllTypes.ROW_TYPE, new int[0])) {
            int count = 0;
            while (reader.next()) {
                assertThat(reader.row().arity()).isZero();
                count++;
            }
            assertThat(count).isEqualTo(rows.size());
        }
    }

    @Test
    void columnsAreMatchedByFieldIdNotName() {
        // the table renamed "s" to "renamed" and added a nullable column with a new id
        List<Field> fields = new ArrayList<>();
        fields.add(new Field(15, "renamed", DataTypes.STRING()));
        fields.add(new Field(99, "added", DataTypes.INT()));
        fields.add(new Field(0, "id", DataTypes.BIGINT().notNull()));
        // a new column that reuses an old name gets a new id: it must not see the old data
        fields.add(new Field(100, "i", DataTypes.INT()));
        RowType evolved = new RowType(fields);

        List<List<Object>> read = readAll(evolved, new int[] {0, 1, 2, 3});

        for (int k = 0; k < rows.size(); k++) {
            Object[] values = rows.get(k);
            List<Object> expected = new ArrayList<>();
            expected.add(values[AllTypes.ROW_TYPE.indexOf("s")]);
            expected.add(null);
            expected.add(values[0]);
            expected.add(null);
            assertThat(read.get(k)).as("row %d", k).isEqualTo(expected);
        }
    }

    @Test
    void nullabilityOfTheFileDecidesWhetherAValueCanBeNull() {
        // "i" is optional in the file (with nulls) but NOT NULL in this table type, and
        // "req_i" the other way round
        RowType type =
                new RowType(
                        List.of(
                                new Field(4, "i", DataTypes.INT().notNull()),
                                new Field(27, "req_i", DataTypes.INT())));
        List<List<Object>> read = readAll(type, new int[] {0, 1});

        int i = AllTypes.ROW_TYPE.indexOf("i");
        int reqI = AllTypes.ROW_TYPE.indexOf("req_i");
        for (int k = 0; k < rows.size(); k++) {
            List<Object> expected = new ArrayList<>();
            expected.add(rows.get(k)[i]);
            expected.add(rows.get(k)[reqI]);
            assertThat(read.get(k)).as("row %d", k).isEqualTo(expected);
        }
        assertThat(read).extracting(r -> r.get(0)).containsNull();
    }

    @Test
    void rejectsAColumnStoredWithAnotherType() {
        RowType changed = new RowType(List.of(new Field(4, "i", DataTypes.BIGINT())));
        assertThatThrownBy(
                        () ->
                                new BaseFileReader(
                                        io.newInputFile(path),
                                        AllTypes.ROW_TYPE,
                                        changed,
                                        new int[] {0}))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Cannot read column i (field id 4) of base file " + path)
                .hasMessageContaining("BIGINT");
    }

    @Test
    void rejectsAMissingNotNullColumn() {
        RowType added = new RowType(List.of(new Field(77, "x", DataTypes.INT().notNull())));
        assertThatThrownBy(
                        () ->
                                new BaseFileReader(
                                        io.newInputFile(path),
                                        AllTypes.ROW_TYPE,
                                        added,
                                        new int[] {0}))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("field id 77")
                .hasMessageContaining(path);
    }

    @Test
    void rejectsInvalidProjections() {
        assertThatThrownBy(
                        () ->
                                new BaseFileReader(
                                        io.newInputFile(path), AllTypes.ROW_TYPE, new int[] {1, 1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("repeated");
        assertThatThrownBy(
                        () ->
                                new BaseFileReader(
                                        io.newInputFile(path), AllTypes.ROW_TYPE, new int[] {99}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("out of range");
    }

    private List<List<Object>> readAll(RowType type, int[] projection) {
        List<List<Object>> read = new ArrayList<>();
        try (BaseFileReader reader =
                new BaseFileReader(io.newInputFile(path), AllTypes.ROW_TYPE, type, projection)) {
            RowType projected = reader.rowType();
            assertThat(projected).isEqualTo(type.project(projection));
            while (reader.next()) {
                assertThat(reader.row().arity()).isEqualTo(projection.length);
                read.add(AllTypes.comparable(reader.row(), projected));
            }
        }
        return read;
    }
}
