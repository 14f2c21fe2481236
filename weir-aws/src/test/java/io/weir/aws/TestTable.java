package io.weir.aws;

import io.weir.Commit;
import io.weir.CommitResult;
import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.io.FileIO;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A keyed table written through the core API as a streaming committer writes it, and a model of its
 * rows: each commit carries an identity (writer, checkpoint), and a commit whose outcome is unknown
 * is retried with the same files and identity, which lands it at most once.
 */
final class TestTable {
    static final RowType TYPE = RowType.of("k", DataTypes.INT(), "v", DataTypes.BIGINT());
    static final Schema SCHEMA = new Schema(TYPE, List.of("k"), List.of());

    final Table table;
    final Map<Integer, Long> model = new TreeMap<>();
    int unknownOutcomes;

    private TestTable(Table table) {
        this.table = table;
    }

    static TestTable create(FileIO io, String location) {
        return new TestTable(
                Tables.create(
                        io, location, SCHEMA, Map.of("bucket", "2", "commit.max-retries", "1000")));
    }

    static TestTable load(FileIO io, String location) {
        return new TestTable(Tables.load(io, location));
    }

    /** Writes rows (k to v) into new data files. */
    List<DataFile> write(Map<Integer, Long> rows) {
        try (TableWrite write = table.newWrite().create()) {
            rows.forEach((k, v) -> write.write(BinaryRowWriter.toRow(TYPE, k, v)));
            return write.prepareCommit();
        }
    }

    /**
     * Writes and commits rows as checkpoint {@code checkpoint} of {@code writer}, retrying the
     * commit (same files, same identity) after an unknown outcome or an I/O error.
     */
    CommitResult commit(String writer, long checkpoint, Map<Integer, Long> rows) {
        List<DataFile> files = write(rows);
        for (int attempt = 0; ; attempt++) {
            try {
                CommitResult result = commit(writer, checkpoint, files);
                model.putAll(rows);
                return result;
            } catch (CommitStateUnknownException | UncheckedIOException e) {
                unknownOutcomes++;
                if (attempt >= 5) {
                    throw e;
                }
            }
        }
    }

    CommitResult commit(String writer, long checkpoint, List<DataFile> files) {
        return table.newAppend().addFiles(files).identity(writer, checkpoint).commit();
    }

    /**
     * Checks the table as a fresh reader on {@code io} sees it: the model's rows, and each of the
     * given writers' checkpoints committed exactly once, nothing else.
     */
    static void assertMatches(
            FileIO io,
            String location,
            Map<Integer, Long> model,
            Map<String, Integer> checkpoints) {
        Table table = Tables.load(io, location);
        List<List<Object>> rows = Rows.readAll(table.newScan().rows(), TYPE, false);
        rows.sort((a, b) -> Integer.compare((Integer) a.get(0), (Integer) b.get(0)));
        List<List<Object>> expected = new ArrayList<>();
        model.forEach((k, v) -> expected.add(List.of(k, v)));
        assertThat(rows).isEqualTo(expected);

        List<String> committed = new ArrayList<>();
        long latest = table.currentSnapshot().id();
        for (long id = 1; id <= latest; id++) {
            Commit commit = table.commit(id);
            committed.add(commit.writerId() + "#" + commit.checkpointId());
        }
        Set<String> distinct = new HashSet<>(committed);
        assertThat(distinct).as("no checkpoint committed twice").hasSameSizeAs(committed);
        Set<String> wanted = new HashSet<>();
        checkpoints.forEach(
                (writer, n) -> {
                    for (int c = 1; c <= n; c++) {
                        wanted.add(writer + "#" + c);
                    }
                });
        assertThat(distinct).as("every checkpoint committed").isEqualTo(wanted);
    }
}
