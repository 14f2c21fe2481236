package io.weir.flink.conformance;

import io.weir.Schema;
import io.weir.UpdateSchema.Position;
import io.weir.types.DataTypes;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The tables of the reader conformance corpus whose schema evolves (docs/format.md §6.9), keyed and
 * append-only.
 */
final class SchemaEvolutionCorpus {
    static final int TABLES = 2;

    private SchemaEvolutionCorpus() {}

    static void write(Path root, Random random) throws Exception {
        // Schema evolution (docs/format.md §6.9): columns added (FIRST, AFTER, last), dropped and
        // renamed, types widened (TINYINT -> SMALLINT -> INT -> BIGINT one version at a time,
        // FLOAT -> DOUBLE, DECIMAL precision within and out of the compact layout, VARCHAR and
        // VARBINARY length) and every type turned into STRING, with files of each version before
        // and after each change, some compacted in between; every snapshot reads in its own
        // version's columns. DOUBLE and FLOAT values include ones whose shortest text is not
        // JDK 17's Double.toString.
        CorpusTable t =
                new CorpusTable(
                        root,
                        "schema_evolved",
                        Schema.builder()
                                .column("id", DataTypes.INT().notNull())
                                .column("name", DataTypes.STRING())
                                .column("c_int", DataTypes.INT())
                                .column("c_float", DataTypes.FLOAT())
                                .column("c_decimal", DataTypes.DECIMAL(5, 2))
                                .column("c_varchar", DataTypes.VARCHAR(10))
                                .column("dropped", DataTypes.INT())
                                .column("old_name", DataTypes.BIGINT())
                                .column("s_int", DataTypes.INT())
                                .column("s_float", DataTypes.FLOAT())
                                .column("s_double", DataTypes.DOUBLE())
                                .column("s_decimal", DataTypes.DECIMAL(20, 4))
                                .column("s_date", DataTypes.DATE())
                                .column("s_ts3", DataTypes.TIMESTAMP(3))
                                .column("s_ts6", DataTypes.TIMESTAMP(6))
                                .column("s_boolean", DataTypes.BOOLEAN())
                                .column("w_tinyint", DataTypes.TINYINT())
                                .column("w_smallint", DataTypes.SMALLINT())
                                .column("w_decimal", DataTypes.DECIMAL(10, 3))
                                .column("w_varbinary", DataTypes.VARBINARY(10))
                                .column("s_tinyint", DataTypes.TINYINT())
                                .column("s_bigint", DataTypes.BIGINT())
                                .column("s_decimal_small", DataTypes.DECIMAL(5, 2))
                                .column("s_time0", DataTypes.TIME(0))
                                .column("s_time3", DataTypes.TIME(3))
                                .column("s_ts9", DataTypes.TIMESTAMP(9))
                                .column("s_ltz3", DataTypes.TIMESTAMP_LTZ(3))
                                .column("s_ltz6", DataTypes.TIMESTAMP_LTZ(6))
                                .column("s_char", DataTypes.CHAR(5))
                                .column("s_varchar", DataTypes.VARCHAR(8))
                                .column("s_binary", DataTypes.BINARY(6))
                                .column("s_bytes", DataTypes.BYTES())
                                .primaryKey("id")
                                .build(),
                        Map.of("bucket", "2"));
        t.overrides.put("s_double", r -> ReaderCorpus.hardDouble(r, DataTypes.DOUBLE()));
        // Bytes that are not UTF-8 too: STRING holds them as they are; as text each maximal
        // ill-formed part reads as U+FFFD.
        t.overrides.put(
                "s_bytes",
                r -> {
                    if (r.nextInt(3) > 0) {
                        return CorpusValues.random(DataTypes.BYTES(), r);
                    }
                    byte[] b = new byte[r.nextInt(12)];
                    r.nextBytes(b);
                    return b;
                });
        t.overrides.put(
                "s_float",
                r -> {
                    Double d = ReaderCorpus.hardDouble(r, DataTypes.FLOAT());
                    return d == null ? null : (float) (double) d;
                });
        t.randomCommit(random, 30, 20, 4);
        t.compact();
        t.randomCommit(random, 30, 20, 4);
        t.evolve(
                u ->
                        u.addColumn("added_first", DataTypes.INT(), null, Position.first())
                                .addColumn(
                                        "added_after",
                                        DataTypes.STRING(),
                                        null,
                                        Position.after("name"))
                                .addColumn("added_last", DataTypes.BIGINT())
                                .dropColumn("dropped")
                                .renameColumn("old_name", "new_name")
                                .updateColumnType("w_tinyint", DataTypes.SMALLINT()));
        t.randomCommit(random, 30, 20, 4);
        t.overrides.keySet().removeAll(List.of("s_double", "s_float", "s_bytes")); // now STRING
        t.evolve(
                u ->
                        u.updateColumnType("c_int", DataTypes.BIGINT())
                                .updateColumnType("c_float", DataTypes.DOUBLE())
                                .updateColumnType("c_decimal", DataTypes.DECIMAL(9, 2))
                                .updateColumnType("c_varchar", DataTypes.VARCHAR(20))
                                .updateColumnType("s_int", DataTypes.STRING())
                                .updateColumnType("s_float", DataTypes.STRING())
                                .updateColumnType("s_double", DataTypes.STRING())
                                .updateColumnType("s_decimal", DataTypes.STRING())
                                .updateColumnType("s_date", DataTypes.STRING())
                                .updateColumnType("s_ts3", DataTypes.STRING())
                                .updateColumnType("s_ts6", DataTypes.STRING())
                                .updateColumnType("s_boolean", DataTypes.STRING())
                                .updateColumnType("w_tinyint", DataTypes.INT())
                                .updateColumnType("w_smallint", DataTypes.BIGINT())
                                .updateColumnType("w_decimal", DataTypes.DECIMAL(30, 3))
                                .updateColumnType("w_varbinary", DataTypes.VARBINARY(40))
                                .updateColumnType("s_tinyint", DataTypes.STRING())
                                .updateColumnType("s_bigint", DataTypes.STRING())
                                .updateColumnType("s_decimal_small", DataTypes.STRING())
                                .updateColumnType("s_time0", DataTypes.STRING())
                                .updateColumnType("s_time3", DataTypes.STRING())
                                .updateColumnType("s_ts9", DataTypes.STRING())
                                .updateColumnType("s_ltz3", DataTypes.STRING())
                                .updateColumnType("s_ltz6", DataTypes.STRING())
                                .updateColumnType("s_char", DataTypes.STRING())
                                .updateColumnType("s_varchar", DataTypes.STRING())
                                .updateColumnType("s_binary", DataTypes.STRING())
                                .updateColumnType("s_bytes", DataTypes.STRING()));
        t.randomCommit(random, 30, 20, 4);
        t.compact();
        // Only base files of an older version: read without a merge, mapped.
        t.evolve(
                u ->
                        u.updateColumnType("c_float", DataTypes.STRING())
                                .addColumn("dropped", DataTypes.INT())
                                .updateColumnType("w_tinyint", DataTypes.BIGINT())
                                .updateColumnType("w_varbinary", DataTypes.BYTES()));
        t.randomCommit(random, 30, 20, 4);
        t.finish();

        // The same for an append-only table (rows read file by file, pruned by statistics, and
        // changes that follow the commits): a partition, an overwrite after the changes.
        t =
                new CorpusTable(
                        root,
                        "schema_evolved_append",
                        Schema.builder()
                                .column("part", DataTypes.INT())
                                .column("c_int", DataTypes.INT())
                                .column("c_float", DataTypes.FLOAT())
                                .column("s_double", DataTypes.DOUBLE())
                                .column("s_date", DataTypes.DATE())
                                .column("name", DataTypes.STRING())
                                .column("w_tinyint", DataTypes.TINYINT())
                                .column("w_decimal", DataTypes.DECIMAL(18, 2))
                                .column("w_varchar", DataTypes.VARCHAR(5))
                                .column("s_float", DataTypes.FLOAT())
                                .column("s_time", DataTypes.TIME(0))
                                .column("s_ltz", DataTypes.TIMESTAMP_LTZ(3))
                                .column("s_char", DataTypes.CHAR(3))
                                .column("s_varbinary", DataTypes.VARBINARY(12))
                                .column("s_boolean", DataTypes.BOOLEAN())
                                .partitionKeys("part")
                                .build(),
                        Map.of());
        t.overrides.put("part", r -> r.nextInt(2));
        t.overrides.put("s_double", r -> ReaderCorpus.hardDouble(r, DataTypes.DOUBLE()));
        t.overrides.put(
                "s_float",
                r -> {
                    Double d = ReaderCorpus.hardDouble(r, DataTypes.FLOAT());
                    return d == null ? null : (float) (double) d;
                });
        t.randomCommit(random, 40, 0, 0);
        t.compact();
        t.randomCommit(random, 40, 0, 0);
        t.overrides.keySet().removeAll(List.of("s_double", "s_float")); // now STRING
        t.evolve(
                u ->
                        u.updateColumnType("c_int", DataTypes.BIGINT())
                                .updateColumnType("c_float", DataTypes.STRING())
                                .updateColumnType("s_double", DataTypes.STRING())
                                .updateColumnType("s_date", DataTypes.STRING())
                                .dropColumn("name")
                                .addColumn("added", DataTypes.STRING(), null, Position.first())
                                .updateColumnType("w_tinyint", DataTypes.SMALLINT())
                                .updateColumnType("w_decimal", DataTypes.DECIMAL(19, 2))
                                .updateColumnType("w_varchar", DataTypes.VARCHAR(50))
                                .updateColumnType("s_float", DataTypes.STRING())
                                .updateColumnType("s_time", DataTypes.STRING())
                                .updateColumnType("s_ltz", DataTypes.STRING())
                                .updateColumnType("s_char", DataTypes.STRING())
                                .updateColumnType("s_varbinary", DataTypes.STRING())
                                .updateColumnType("s_boolean", DataTypes.STRING()));
        t.randomCommit(random, 40, 0, 0);
        t.compact();
        t.randomCommit(random, 20, 0, 0);
        t.finish();
    }
}
