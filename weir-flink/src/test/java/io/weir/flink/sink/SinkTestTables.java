package io.weir.flink.sink;

import io.weir.Schema;
import io.weir.Table;
import io.weir.Tables;
import io.weir.flink.FlinkTypes;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The tables the sink tests write, their rows, and reading them back with the core API. */
final class SinkTestTables {
    private SinkTestTables() {}

    /** (id, dt, v, name), primary key (id, dt), partitioned by dt. */
    static Schema keyedSchema() {
        return Schema.builder()
                .column("id", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .primaryKey("id", "dt")
                .partitionKeys("dt")
                .build();
    }

    /** (id, dt, v, name) without a key, partitioned by dt. */
    static Schema appendSchema() {
        return Schema.builder()
                .column("id", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .partitionKeys("dt")
                .build();
    }

    static Table create(Path dir, Schema schema, int buckets) {
        return Tables.create(
                dir.toString(),
                schema,
                Map.of("bucket", Integer.toString(buckets), "write-buffer-size", "4mb"));
    }

    /** The Flink type of the rows: both tables have the same columns. */
    static RowType rowType() {
        return FlinkTypes.toFlink(appendSchema());
    }

    static RowData row(RowKind kind, long id, String dt, long v, String name) {
        GenericRowData row =
                GenericRowData.of(id, StringData.fromString(dt), v, StringData.fromString(name));
        row.setRowKind(kind);
        return row;
    }

    /**
     * The table's rows as value lists, read with the core API, sorted as {@link Changes#sorted}.
     */
    static List<List<Object>> read(String location) {
        Table table = Tables.load(location);
        return Changes.sorted(
                Rows.readAll(table.newScan().rows(), table.schema().rowType(), false));
    }
}
