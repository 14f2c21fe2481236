package io.weir.flink.table;

import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.options.StorageOptions;
import io.weir.options.TableOptions;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The connector through SQL: option validation and create-or-check of the table at 'path'. */
class WeirDynamicTableFactoryTest {
    private static final String TABLE = "default_catalog.default_database.t";
    private static final String COLUMNS =
            "id BIGINT, dt STRING, v INT, PRIMARY KEY (id, dt) NOT ENFORCED";

    @TempDir Path dir;
    private TableEnvironment env;
    private String path;

    @BeforeEach
    void setUp() {
        env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        path = dir.resolve("t").toString();
    }

    @Test
    void firstUseCreatesTheTableFromTheDdlCommittingNothing() {
        ddl(COLUMNS, "PARTITIONED BY (dt)", "'bucket' = '8', 'log.codec' = 'zstd'");
        read();

        Table table = Tables.load(path);
        assertThat(table.schema()).isEqualTo(expectedSchema());
        assertThat(table.options().toMap()).isEqualTo(Map.of("bucket", "8", "log.codec", "zstd"));
        assertThat(table.currentSnapshot().id()).isZero();
    }

    @Test
    void writingAlsoCreatesTheTable() {
        ddl(COLUMNS, "PARTITIONED BY (dt)", "'sink.parallelism' = '2'");
        plan("INSERT INTO t VALUES (1, 'a', 1)");

        Table table = Tables.load(path);
        assertThat(table.schema()).isEqualTo(expectedSchema());
        assertThat(table.options().toMap()).isEmpty();
        assertThat(table.currentSnapshot().id()).isZero();
    }

    @Test
    void primaryKeyColumnsBecomeNotNull() {
        ddl("id BIGINT, v INT, PRIMARY KEY (id) NOT ENFORCED", "", "");
        read();
        assertThat(Tables.load(path).schema().rowType().type(0))
                .isEqualTo(DataTypes.BIGINT().notNull());
    }

    /** Flink's not-null enforcer stops null keys first; the writer is the last line. */
    @Test
    void theWriterRejectsANullKeyOfATableCreatedFromTheDdl() {
        ddl("id BIGINT, v INT, PRIMARY KEY (id) NOT ENFORCED", "", "");
        read();
        Table table = Tables.load(path);
        try (TableWrite write = table.newWrite().create()) {
            RowType type = table.schema().rowType();
            assertThatThrownBy(
                            () -> write.write(BinaryRowWriter.toRow(type, RowKind.INSERT, null, 1)))
                    .isInstanceOf(io.weir.exceptions.ValidationException.class)
                    .hasMessage(
                            "Cannot write a row with a null primary key to table "
                                    + path
                                    + ": column 'id' is null");
        }
    }

    @Test
    void aDdlMatchingTheStoredTableUsesIt() {
        Tables.create(path, expectedSchema(), Map.of("bucket", "2"));
        // A table option the DDL leaves unset matches any stored value.
        ddl(COLUMNS, "PARTITIONED BY (dt)", "");
        read();
        ddl(COLUMNS, "PARTITIONED BY (dt)", "'bucket' = '2', 'log.codec' = 'lz4'");
        read();
        assertThat(Tables.load(path).options().toMap()).isEqualTo(Map.of("bucket", "2"));
    }

    @Test
    void aDdlThatDiffersFromTheStoredTableFailsNamingEachDifference() {
        Tables.create(path, expectedSchema(), Map.of("bucket", "2"));

        ddl(
                "id BIGINT, dt STRING, v BIGINT, PRIMARY KEY (id, dt) NOT ENFORCED",
                "PARTITIONED BY (dt)",
                "");
        assertMismatch("column 'v' is INT in the table but BIGINT in the DDL");

        ddl(
                "id BIGINT, dt STRING, w STRING, PRIMARY KEY (id, dt) NOT ENFORCED",
                "PARTITIONED BY (dt)",
                "");
        assertMismatch(
                "column 'v' is missing from the DDL; column 'w' does not exist in the table");

        ddl(
                "dt STRING, id BIGINT, v INT, PRIMARY KEY (id, dt) NOT ENFORCED",
                "PARTITIONED BY (dt)",
                "");
        assertMismatch("the columns are (id, dt, v) in the table but (dt, id, v) in the DDL");

        ddl("id BIGINT, dt STRING NOT NULL, v INT, PRIMARY KEY (id) NOT ENFORCED", "", "");
        assertMismatch(
                "the primary key is (id, dt) in the table but (id) in the DDL; the partition keys"
                        + " are (dt) in the table but none in the DDL");

        ddl(COLUMNS, "PARTITIONED BY (dt)", "'bucket' = '4', 'sequence.field' = 'v'");
        assertMismatch(
                "option 'bucket' is '2' in the table but '4' in the DDL; option 'sequence.field'"
                        + " is unset in the table but 'v' in the DDL");

        // The sink checks too.
        ddl(COLUMNS, "", "");
        assertThatThrownBy(() -> plan("INSERT INTO t VALUES (1, 'a', 1)"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                mismatch(
                                                        "the partition keys are (dt) in the table"
                                                                + " but none in the DDL")));
    }

    @Test
    void anUnknownOptionFailsListingTheValidOnes() {
        ddl(COLUMNS, "", "'buckets' = '8'");
        TreeSet<String> supported =
                new TreeSet<>(
                        List.of(
                                "connector",
                                "path",
                                "property-version",
                                "sink.parallelism",
                                "scan.watermark.alignment.group",
                                "scan.watermark.alignment.max-drift",
                                "scan.watermark.alignment.update-interval",
                                "scan.watermark.emit.strategy",
                                "scan.watermark.idle-timeout"));
        supported.addAll(TableOptions.keys());
        supported.addAll(StorageOptions.ALL.keySet());
        WeirDynamicTableFactory.readOptions().stream()
                .map(ConfigOption::key)
                .forEach(supported::add);
        supported.add("write.mode");
        assertFails(
                "Unsupported options found for 'weir'.\n\n"
                        + "Unsupported options:\n\n"
                        + "buckets\n\n"
                        + "Supported options:\n\n"
                        + String.join("\n", supported));
        assertThat(supported)
                .containsSubsequence(
                        "bucket",
                        "commit.max-retries",
                        "compaction.max-log-files",
                        "connector",
                        "file.compression",
                        "log.block-size",
                        "log.codec",
                        "merge-engine",
                        "metadata.checkpoint-interval",
                        "page-size",
                        "path",
                        "sequence.field",
                        "sink.parallelism",
                        "target-file-size",
                        "write-buffer-size",
                        "write-only");
    }

    @Test
    void invalidValuesFailNamingTheOptionAndWhatIsValid() {
        assertInvalid(
                "'bucket' = '0'",
                "Invalid value '0' for option 'bucket': must be between 1 and 32768");
        assertInvalid(
                "'bucket' = 'four'",
                "Invalid value 'four' for option 'bucket': expected an integer");
        assertInvalid(
                "'log.codec' = 'gzip'",
                "Invalid value 'gzip' for option 'log.codec': expected one of [none, lz4, zstd]");
        assertInvalid(
                "'write-buffer-size' = '10 kb'",
                "Invalid value '10 kb' for option 'write-buffer-size': must be at least 1 mb");
        assertInvalid(
                "'page-size' = '3000'",
                "Invalid value '3000' for option 'page-size': must be a power of two between 4 kb"
                        + " and 16 mb");
        assertInvalid(
                "'write-only' = 'yes'",
                "Invalid value 'yes' for option 'write-only': expected true or false");
        // The connector's error names the table, the option and what is valid.
        assertInvalid(
                "'bucket' = 'four'",
                "Table "
                        + TABLE
                        + ": Invalid value 'four' for option 'bucket': expected an integer");
    }

    /**
     * The connector's own options (not stored with the table) fail as the table options do, not in
     * the words of Java's parsers ("Could not parse value for enum class ...", "For input string").
     */
    @Test
    void invalidConnectorOptionValuesFailNamingTableOptionAndWhatIsValid() {
        String prefix = "Table " + TABLE + ": Invalid value ";
        assertInvalid(
                "'sink.parallelism' = 'x'",
                prefix + "'x' for option 'sink.parallelism': expected an integer");
        assertInvalid(
                "'write.mode' = 'nope'",
                prefix + "'nope' for option 'write.mode': expected one of [upsert, bulk-insert]");
        assertInvalid(
                "'scan.mode' = 'nope'",
                prefix
                        + "'nope' for option 'scan.mode': expected one of [full, latest,"
                        + " from-snapshot]");
        assertInvalid(
                "'scan.snapshot-id' = 'first'",
                prefix + "'first' for option 'scan.snapshot-id': expected a long integer");
        assertInvalid(
                "'scan.lease.enabled' = 'maybe'",
                prefix + "'maybe' for option 'scan.lease.enabled': expected true or false");
        for (String key :
                List.of("scan.lease.ttl", "scan.discovery-interval", "lookup.refresh-interval")) {
            assertInvalid(
                    "'" + key + "' = 'soon'",
                    prefix
                            + "'soon' for option '"
                            + key
                            + "': expected a duration such as '30 s', '10 min' or '7 d'");
        }
    }

    @Test
    void aTypeParameterWeirCannotStoreFailsNamingTableAndColumn() {
        ddl("id BIGINT, c CHAR(0)", "", "");
        assertFails(
                "Table "
                        + TABLE
                        + ": Column 'c' has type CHAR(0), which Weir cannot store: Invalid CHAR"
                        + " type: length must be >= 1");
    }

    @Test
    void aMissingPathOrOneOfAnUnknownFileSystemFails() {
        env.executeSql("CREATE TABLE t (id BIGINT) WITH ('connector' = 'weir')");
        assertFails(
                "One or more required options are missing.\n\nMissing required options are:\n\npath");

        env.executeSql(
                "CREATE TABLE t2 (id BIGINT) WITH ('connector' = 'weir', 'path' = 'gs://nn/t')");
        assertThatThrownBy(() -> read("t2"))
                .satisfies(
                        e ->
                                assertThat(String.join("\n", messages(e)))
                                        .contains(
                                                "Invalid value 'gs://nn/t' for option 'path':"
                                                        + " No file system for location"
                                                        + " 'gs://nn/t': its scheme 'gs' is not"
                                                        + " among those on the classpath"));
    }

    @Test
    void invalidSchemasFailNamingTheColumnOrKey() {
        ddl("id BIGINT, tags ARRAY<STRING>", "", "");
        assertFails(
                "Column 'tags' has type ARRAY<STRING>, which Weir does not support yet (supported:"
                        + " BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR,"
                        + " VARCHAR, STRING, BINARY, VARBINARY, BYTES, DATE, TIME, TIMESTAMP,"
                        + " TIMESTAMP_LTZ)");

        ddl("id BIGINT, dt STRING, PRIMARY KEY (id) NOT ENFORCED", "PARTITIONED BY (dt)", "");
        assertFails(
                "Invalid partition key: column 'dt' must be part of the primary key [id], so that"
                        + " each key lives in one partition");

        ddl("id BIGINT, v INT", "", "'sequence.field' = 'nope'");
        assertThatThrownBy(this::read)
                .satisfies(
                        e ->
                                assertThat(String.join("\n", messages(e)))
                                        .contains("Cannot create table " + TABLE + ": ")
                                        .contains("nope"));
        assertThat(dir.resolve("t")).doesNotExist();
    }

    private Schema expectedSchema() {
        return Schema.builder()
                .column("id", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING())
                .column("v", DataTypes.INT())
                .primaryKey("id", "dt")
                .partitionKeys("dt")
                .build();
    }

    private void ddl(String columns, String partitioning, String options) {
        env.executeSql("DROP TABLE IF EXISTS t");
        env.executeSql(
                "CREATE TABLE t ("
                        + columns
                        + ") "
                        + partitioning
                        + " WITH ('connector' = 'weir', 'path' = '"
                        + path
                        + "'"
                        + (options.isEmpty() ? "" : ", " + options)
                        + ")");
    }

    private void read() {
        read("t");
    }

    private void read(String table) {
        plan("SELECT * FROM " + table);
    }

    /** Plans a statement, which makes Flink create the table's source or sink. */
    private void plan(String sql) {
        env.explainSql(sql);
    }

    private void assertInvalid(String option, String message) {
        ddl(COLUMNS, "", option);
        assertFails(message);
        assertThat(dir.resolve("t")).doesNotExist();
    }

    private void assertMismatch(String differences) {
        assertFails(mismatch(differences));
    }

    private String mismatch(String differences) {
        return "Table " + TABLE + " does not match the Weir table at " + path + ": " + differences;
    }

    private void assertFails(String message) {
        assertThatThrownBy(this::read).satisfies(e -> assertThat(messages(e)).contains(message));
    }

    /** The messages of an exception and its causes: Flink wraps the factory's error. */
    static List<String> messages(Throwable e) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause()) {
            messages.add(t.getMessage());
        }
        return messages;
    }
}
