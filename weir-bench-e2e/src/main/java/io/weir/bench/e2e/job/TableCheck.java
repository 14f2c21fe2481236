package io.weir.bench.e2e.job;

import io.weir.bench.e2e.gen.DatagenExpectation;
import io.weir.bench.e2e.gen.ExpectedRows;
import io.weir.bench.e2e.gen.RowGenerator;
import io.weir.bench.e2e.gen.SourceKind;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.BitSet;
import java.util.Objects;

/**
 * Reads a table back (Flink SQL, batch) and checks it against the rows generated again: exactly the
 * keys written, each with its latest value ({@link ExpectedRows}); for datagen's unrepeatable rows,
 * the keys and the shape of the values ({@link DatagenExpectation}).
 */
final class TableCheck {
    private TableCheck() {}

    static JsonLine verify(TableEnvironment batch, SinkTable table, JobSettings settings)
            throws Exception {
        if (settings.source() == SourceKind.DATAGEN) {
            return verifyDatagen(batch, table, settings);
        }
        RowGenerator generator =
                new RowGenerator(
                        settings.workload(),
                        settings.rows(),
                        settings.keys(),
                        settings.bulkInsert());
        ExpectedRows expected =
                new ExpectedRows(generator, settings.rows(), settings.parallelism());
        BitSet seen = new BitSet();
        long read = 0;
        long unknown = 0;
        long duplicates = 0;
        long wrong = 0;
        try (CloseableIterator<Row> rows = batch.executeSql(table.selectColumns()).collect()) {
            while (rows.hasNext()) {
                Row row = rows.next();
                read++;
                long key = (Long) row.getField(0);
                if (!expected.contains(key)) {
                    unknown++;
                } else if (seen.get((int) key)) {
                    duplicates++;
                } else {
                    seen.set((int) key);
                    if (!expected.isLatest(key, e -> sameValues(e, row))) {
                        wrong++;
                    }
                }
            }
        }
        long misplaced = misplaced(batch, table);
        boolean verified =
                read == expected.distinctKeys()
                        && unknown == 0
                        && duplicates == 0
                        && wrong == 0
                        && misplaced <= 0;
        JsonLine line =
                new JsonLine()
                        .put("phase", Phase.VERIFY.id())
                        .put("verified", verified)
                        .put("rows_read", read)
                        .put("rows_expected", expected.distinctKeys())
                        .put("unknown_keys", unknown)
                        .put("duplicate_keys", duplicates)
                        .put("stale_or_wrong_values", wrong);
        return withMisplaced(line, misplaced);
    }

    private static JsonLine verifyDatagen(
            TableEnvironment batch, SinkTable table, JobSettings settings) throws Exception {
        DatagenExpectation expected =
                new DatagenExpectation(settings.workload(), settings.rows(), settings.keys());
        try (CloseableIterator<Row> rows = batch.executeSql(table.selectColumns()).collect()) {
            rows.forEachRemaining(expected::accept);
        }
        long misplaced = misplaced(batch, table);
        JsonLine line =
                new JsonLine()
                        .put("phase", Phase.VERIFY.id())
                        .put("verified", expected.verified() && misplaced <= 0)
                        .put("rows_read", expected.read())
                        .put("rows_expected", expected.expectedKeys())
                        .put("rows_tolerance", expected.tolerance())
                        .put("unknown_keys", expected.unknownKeys())
                        .put("duplicate_keys", expected.duplicateKeys())
                        .put("malformed_rows", expected.malformedRows());
        return withMisplaced(line, misplaced);
    }

    /** Rows in a partition other than their key's; -1 for an unpartitioned table. */
    private static long misplaced(TableEnvironment batch, SinkTable table) throws Exception {
        String query = table.countMisplaced();
        if (query == null) {
            return -1;
        }
        try (CloseableIterator<Row> it = batch.executeSql(query).collect()) {
            return ((Number) it.next().getField(0)).longValue();
        }
    }

    private static JsonLine withMisplaced(JsonLine line, long misplaced) {
        return misplaced < 0 ? line : line.put("misplaced_rows", misplaced);
    }

    /** Whether a row read back (Flink's external types) holds the generated values. */
    static boolean sameValues(GenericRowData expected, Row actual) {
        if (actual.getArity() != expected.getArity()) {
            return false;
        }
        for (int i = 0; i < expected.getArity(); i++) {
            if (!Objects.equals(external(expected.getField(i)), actual.getField(i))) {
                return false;
            }
        }
        return true;
    }

    private static Object external(Object internal) {
        if (internal instanceof StringData s) {
            return s.toString();
        }
        if (internal instanceof TimestampData t) {
            return t.toLocalDateTime();
        }
        return internal;
    }
}
