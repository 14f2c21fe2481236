package io.weir.commit;

import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.expressions.Expressions;
import io.weir.testing.Rows;
import io.weir.testing.ShmTempDirFactory;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One partition per FLOAT/DOUBLE value (docs/format.md §2.3, issue 26). New partitions get the
 * canonical texts (the shortest decimal, -0.0 as 0.0); a table whose partitions a JDK 17 writer
 * named with other texts ({@code 9.999999999999999E22} for 1.0E23) keeps them: later writes of the
 * same value land in those partitions (an upsert replaces the old row), an overwrite of the
 * partition by its canonical text replaces them, and filters select them by value.
 */
class FloatPartitionsTest {
    private static final RowType TYPE =
            RowType.of(
                    "k",
                    DataTypes.INT(),
                    "p",
                    DataTypes.DOUBLE(),
                    "f",
                    DataTypes.FLOAT(),
                    "v",
                    DataTypes.BIGINT());
    private static final Schema SCHEMA =
            new Schema(TYPE, List.of("k", "p", "f"), List.of("p", "f"));

    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    @Test
    void newPartitionsGetCanonicalTexts() {
        Table table = Tables.create(dir.resolve("t").toString(), SCHEMA, Map.of("bucket", "1"));
        commit(
                table,
                List.of(List.of(1, 1.0E23, 2.82879384806159E17f, 1L), List.of(2, -0.0, -0.0f, 2L)));
        commit(table, List.of(List.of(3, 0.0, 0.0f, 3L)));
        assertThat(partitions(table))
                .containsExactlyInAnyOrder(
                        Partition.of("1.0E23", "2.8287938E17"), Partition.of("0.0", "0.0"));
    }

    @Test
    void partitionsWrittenWithOtherTextsKeepTheirIdentity() {
        Table table = Tables.create(dir.resolve("t").toString(), SCHEMA, Map.of("bucket", "1"));
        // As a JDK 17 writer named them.
        Partition old = Partition.of("9.999999999999999E22", "2.82879379E17");
        Partition oldZero = Partition.of("-0.0", "-0.0");
        try (TableWrite write = table.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(TYPE, 1, 1.0E23, 2.82879384806159E17f, 1L));
            write.write(BinaryRowWriter.toRow(TYPE, 2, -0.0, -0.0f, 2L));
            List<DataFile> files = new ArrayList<>();
            for (DataFile f : write.prepareCommit()) {
                Partition p = f.partition().values().get(0).equals("1.0E23") ? old : oldZero;
                files.add(withPartition(f, p));
            }
            table.newAppend().addFiles(files).commit();
        }
        assertThat(partitions(table)).containsExactlyInAnyOrder(old, oldZero);

        // The same values again, written with the canonical texts: upserts into those partitions.
        commit(
                table,
                List.of(List.of(1, 1.0E23, 2.82879384806159E17f, 10L), List.of(2, 0.0, 0.0f, 20L)));
        assertThat(partitions(table)).containsExactlyInAnyOrder(old, oldZero);
        assertThat(read(table))
                .containsExactly(
                        List.of(1, 1.0E23, 2.82879384806159E17f, 10L), List.of(2, 0.0, 0.0f, 20L));

        // A filter compares values, not texts (a FLOAT literal as a float: a decimal text is
        // read as a DOUBLE literal).
        assertThat(
                        Rows.readAll(
                                table.newScan().filter(Expressions.equal("p", "1.0E23")).rows(),
                                TYPE,
                                false))
                .hasSize(1);
        assertThat(
                        Rows.readAll(
                                table.newScan()
                                        .filter(Expressions.equal("f", 2.82879384806159E17f))
                                        .rows(),
                                TYPE,
                                false))
                .hasSize(1);

        // An overwrite of the partition named by its canonical texts replaces the old one.
        try (TableWrite write = table.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(TYPE, 5, 1.0E23, 2.82879384806159E17f, 50L));
            table.newOverwrite()
                    .overwritePartition(Partition.of("1.0E23", "2.8287938E17"))
                    .addFiles(write.prepareCommit())
                    .commit();
        }
        assertThat(partitions(table)).containsExactlyInAnyOrder(old, oldZero);
        assertThat(read(table))
                .containsExactly(
                        List.of(2, 0.0, 0.0f, 20L), List.of(5, 1.0E23, 2.82879384806159E17f, 50L));
    }

    private static void commit(Table table, List<List<Object>> rows) {
        try (TableWrite write = table.newWrite().create()) {
            for (List<Object> r : rows) {
                write.write(BinaryRowWriter.toRow(TYPE, r.toArray()));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    private static List<Partition> partitions(Table table) {
        table.refresh();
        return table.currentSnapshot().fileGroups().keySet().stream()
                .map(FileGroupId::partition)
                .distinct()
                .toList();
    }

    private static List<List<Object>> read(Table table) {
        table.refresh();
        List<List<Object>> rows = Rows.readAll(table.newScan().rows(), TYPE, false);
        rows.sort(Comparator.comparing(r -> (Integer) r.get(0)));
        return rows;
    }

    private static DataFile withPartition(DataFile f, Partition p) {
        return new DataFile(
                f.path(),
                f.kind(),
                p,
                f.bucket(),
                f.recordCount(),
                f.sizeInBytes(),
                f.sequence(),
                f.schemaId(),
                f.minKey(),
                f.maxKey(),
                f.columnStats());
    }
}
