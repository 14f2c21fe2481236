package io.weir.flink.catalog;

import io.weir.DataFile;
import io.weir.Partition;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.options.StorageOptions;
import io.weir.options.TableOptions;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.types.Row;
import org.apache.flink.util.CollectionUtil;
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

/** The catalog through SQL DDL, and what it stores, read back by a fresh catalog. */
class WeirCatalogTest {
    private static final String CREATE_T =
            "CREATE TABLE c.db.t (id BIGINT, dt STRING, v INT COMMENT 'the value',"
                    + " PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt) WITH ('bucket' = '8')";

    @TempDir Path warehouse;
    private TableEnvironment env;

    @BeforeEach
    void setUp() {
        env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql("CREATE CATALOG c WITH ('type' = 'weir', 'warehouse' = '" + warehouse.toUri() + "')");
    }

    @Test
    void databasesAreDirectories() {
        sql("USE CATALOG c");
        assertThat(query("SHOW DATABASES")).containsExactly(List.of("default"));
        sql("CREATE DATABASE db");
        sql("CREATE DATABASE IF NOT EXISTS db");
        assertThat(query("SHOW DATABASES")).containsExactly(List.of("db"), List.of("default"));
        assertThat(warehouse.resolve("db.db")).isDirectory();
        assertThatThrownBy(() -> sql("CREATE DATABASE db"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("Database db already exists in Catalog c."));

        sql(CREATE_T);
        assertThatThrownBy(() -> sql("DROP DATABASE db"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains("Database db in catalog c is not empty."));
        sql("DROP DATABASE db CASCADE");
        assertThat(warehouse.resolve("db.db")).doesNotExist();
        assertThat(query("SHOW DATABASES")).containsExactly(List.of("default"));

        assertThatThrownBy(() -> sql("CREATE DATABASE db2 COMMENT 'x'"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "A database comment or property is not supported:"
                                                        + " the Weir catalog c does not store them"));
    }

    @Test
    void tablesAreCreatedListedDescribedAndDropped() {
        sql("CREATE DATABASE c.db");
        sql(CREATE_T);
        sql("CREATE TABLE c.db.log (msg STRING)");
        assertThat(query("SHOW TABLES IN c.db")).containsExactly(List.of("log"), List.of("t"));
        assertThat(query("DESCRIBE c.db.t"))
                .containsExactly(
                        row("id", "BIGINT", false, "PRI(id, dt)", null, null, null),
                        row("dt", "STRING", false, "PRI(id, dt)", null, null, null),
                        row("v", "INT", true, null, null, null, "the value"));

        Table table = Tables.load(warehouse.resolve("db.db/t").toString());
        assertThat(table.currentSnapshot().id()).as("creating commits nothing").isZero();
        assertThat(table.options().bucket()).isEqualTo(8);

        assertThatThrownBy(() -> sql(CREATE_T))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Table (or view) db.t already exists in Catalog c."));
        sql(CREATE_T.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"));

        sql("DROP TABLE c.db.t");
        assertThat(query("SHOW TABLES IN c.db")).containsExactly(List.of("log"));
        assertThat(warehouse.resolve("db.db/t")).doesNotExist();
        sql("DROP TABLE IF EXISTS c.db.t");
    }

    @Test
    void createRefusesADirectoryWithForeignFilesAndDropLeavesThemInPlace() throws Exception {
        sql("CREATE DATABASE c.db");
        java.nio.file.Path dir = warehouse.resolve("db.db/t");
        java.nio.file.Files.createDirectories(dir.resolve("exports"));
        java.nio.file.Files.writeString(dir.resolve("exports/orders.csv"), "1,2");
        assertThatThrownBy(() -> sql(CREATE_T))
                .satisfies(
                        e ->
                                assertThat(String.join("\n", messages(e)))
                                        .contains(
                                                "Cannot create table db.t: Cannot create table at")
                                        .contains(dir.resolve("exports/orders.csv").toString()));
        assertThat(dir.resolve("_weir")).doesNotExist();
        java.nio.file.Files.delete(dir.resolve("exports/orders.csv"));

        // Files put into the table's directory later stay when the table is dropped.
        sql(CREATE_T);
        sql("INSERT INTO c.db.t VALUES (1, 'a', 1), (2, 'b', 2)");
        java.nio.file.Path mine = dir.resolve("dt=a/notes.txt");
        java.nio.file.Files.createDirectories(mine.getParent());
        java.nio.file.Files.writeString(mine, "mine");
        java.nio.file.Files.writeString(dir.resolve("exports/orders.csv"), "1,2");
        sql("DROP TABLE c.db.t");
        assertThat(query("SHOW TABLES IN c.db")).isEmpty();
        try (var files = java.nio.file.Files.walk(dir)) {
            assertThat(files.filter(java.nio.file.Files::isRegularFile).toList())
                    .containsExactlyInAnyOrder(mine, dir.resolve("exports/orders.csv"));
        }
    }

    @Test
    void aFreshCatalogReadsTheTableBackFromDisk() throws Exception {
        sql("CREATE DATABASE c.db");
        sql(CREATE_T);

        WeirCatalog catalog = new WeirCatalog("other", "default", warehouse.toString());
        catalog.open();
        CatalogBaseTable read = catalog.getTable(new ObjectPath("db", "t"));
        assertThat(read).isInstanceOf(CatalogTable.class);
        CatalogTable table = (CatalogTable) read;
        assertThat(table.getUnresolvedSchema().toString())
                .isEqualTo(
                        "(\n"
                                + "  `id` BIGINT NOT NULL,\n"
                                + "  `dt` STRING NOT NULL,\n"
                                + "  `v` INT COMMENT 'the value',\n"
                                + "  CONSTRAINT `PK_id_dt` PRIMARY KEY (`id`, `dt`) NOT ENFORCED\n"
                                + ")");
        assertThat(table.getPartitionKeys()).containsExactly("dt");
        assertThat(table.getOptions())
                .isEqualTo(Map.of("bucket", "8", "path", warehouse.resolve("db.db/t").toString()));
        assertThat(catalog.listTables("db")).containsExactly("t");
        assertThat(catalog.tableExists(new ObjectPath("db", "t$commits"))).isTrue();
        assertThat(catalog.tableExists(new ObjectPath("db", "t$nope"))).isFalse();
        assertThat(catalog.tableExists(new ObjectPath("db", "u"))).isFalse();
    }

    @Test
    void partitionsAreThoseWithLiveFiles() throws Exception {
        sql("CREATE DATABASE c.db");
        sql(CREATE_T);
        Table table = Tables.load(warehouse.resolve("db.db/t").toString());
        try (TableWrite write = table.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(table.schema().rowType(), 1L, "2024-01-02", 1));
            write.write(BinaryRowWriter.toRow(table.schema().rowType(), 2L, "2024-01-01", 2));
            write.write(BinaryRowWriter.toRow(table.schema().rowType(), 3L, "2024-01-02", 3));
            List<DataFile> files = write.prepareCommit();
            table.newAppend().addFiles(files).commit();
        }

        WeirCatalog catalog = new WeirCatalog("c", "default", warehouse.toString());
        ObjectPath path = new ObjectPath("db", "t");
        CatalogPartitionSpec day1 = new CatalogPartitionSpec(Map.of("dt", "2024-01-01"));
        CatalogPartitionSpec day2 = new CatalogPartitionSpec(Map.of("dt", "2024-01-02"));
        assertThat(catalog.listPartitions(path)).containsExactly(day1, day2);
        assertThat(catalog.listPartitions(path, day2)).containsExactly(day2);
        assertThat(catalog.partitionExists(path, day1)).isTrue();
        assertThat(catalog.partitionExists(path, new CatalogPartitionSpec(Map.of("dt", "x"))))
                .isFalse();
        assertThat(query("SHOW PARTITIONS c.db.t"))
                .containsExactly(List.of("dt=2024-01-01"), List.of("dt=2024-01-02"));
        assertThat(Partition.of("2024-01-01").path(List.of("dt"))).isEqualTo("dt=2024-01-01");
    }

    @Test
    void renamingMovesTheTableWithItsData() throws Exception {
        sql("CREATE DATABASE c.db");
        sql(CREATE_T);
        Table table = Tables.load(warehouse.resolve("db.db/t").toString());
        try (TableWrite write = table.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(table.schema().rowType(), 1L, "a", 1));
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        sql("ALTER TABLE c.db.t RENAME TO u");
        assertThat(query("SHOW TABLES IN c.db")).containsExactly(List.of("u"));
        Table renamed = Tables.load(warehouse.resolve("db.db/u").toString());
        assertThat(renamed.currentSnapshot().id()).isEqualTo(1);
        assertThat(renamed.newScan().plan()).hasSize(1);
    }

    @Test
    void whatAWeirTableCannotStoreIsRejected() {
        sql("CREATE DATABASE c.db");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT) WITH ('connector' = 'datagen')",
                "Cannot create table db.t: the Weir catalog stores Weir tables only, not"
                        + " 'connector' = 'datagen' (create it as a TEMPORARY table or in another"
                        + " catalog)");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT, id2 AS id * 2)",
                "Cannot create table db.t: column 'id2' is not a physical column");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)",
                "Cannot create table db.t: watermarks cannot be stored");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT) COMMENT 'hello'",
                "Cannot create table db.t: table comments cannot be stored");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT) DISTRIBUTED BY HASH(id) INTO 4 BUCKETS",
                "Cannot create table db.t: DISTRIBUTED BY is not supported; set the number of"
                        + " buckets with the table option 'bucket' (rows are bucketed by primary"
                        + " key)");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT) WITH ('path' = '/elsewhere')",
                "Cannot create table db.t: option 'path' is set by the catalog ("
                        + warehouse.resolve("db.db/t")
                        + ")");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT) WITH ('sink.parallelism' = '2')",
                "Cannot create table db.t: option 'sink.parallelism' is not stored with the table;"
                        + " give it per query with an OPTIONS hint");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT) WITH ('buckets' = '2')",
                "Cannot create table db.t: Unknown table option 'buckets'. Valid options: "
                        + String.join(", ", TableOptions.keys()));
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT) WITH ('bucket' = '0')",
                "Cannot create table db.t: Invalid value '0' for option 'bucket': must be between"
                        + " 1 and 32768");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT, v INT) WITH ('sequence.field' = 'w')",
                "Cannot create table db.t: Invalid option 'sequence.field': column 'w' does not"
                        + " exist (columns: [id, v])");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT, c CHAR(0))",
                "Cannot create table db.t: Column 'c' has type CHAR(0), which Weir cannot store:"
                        + " Invalid CHAR type: length must be >= 1");
        assertCreateFails(
                "CREATE TABLE c.db.t (id BIGINT, m MAP<STRING, INT>)",
                "Cannot create table db.t: Column 'm' has type MAP<STRING, INT>, which Weir does"
                        + " not support yet (supported: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT,"
                        + " FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, STRING, BINARY, VARBINARY,"
                        + " BYTES, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ)");
        assertCreateFails(
                "CREATE TABLE c.db.`t$x` (id BIGINT)",
                "Cannot create table db.t$x: '$' is reserved for system tables such as"
                        + " t$commits");
        assertCreateFails(
                "CREATE TABLE c.db.`../t` (id BIGINT)",
                "Invalid table name '../t': a name must not be blank, start with '.' or contain"
                        + " '/' or '\\'");
        assertCreateFails(
                "CREATE TABLE c.nodb.t (id BIGINT)", "Database nodb does not exist in Catalog c.");
        // Only the database's marker: no table was created.
        assertThat(warehouse.resolve("db.db").toFile().list()).containsExactly(".database");
    }

    @Test
    void unsupportedOperationsSaySo() {
        sql("CREATE DATABASE c.db");
        sql(CREATE_T);
        assertThatThrownBy(() -> sql("ALTER TABLE c.db.t SET ('bucket' = '16')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Cannot set option 'bucket' of table db.t: the"
                                                        + " number of buckets changes by rewriting"
                                                        + " the data, with CALL"
                                                        + " sys.rescale('<table>', <buckets>) or"
                                                        + " weir rescale (docs/rescale.md)"));
        assertThatThrownBy(() -> sql("CREATE FUNCTION c.db.f AS 'x.Y'"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "CREATE FUNCTION is not supported: the Weir"
                                                        + " catalog c does not store functions"
                                                        + " (create a TEMPORARY function)"));
        assertThat(query("SHOW FUNCTIONS IN c.db").size()).isGreaterThan(0); // built-ins only
        assertThatThrownBy(() -> sql("DROP TABLE c.db.`t$files`"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Cannot drop db.t$files: system tables cannot be"
                                                        + " dropped"));
    }

    @Test
    void catalogOptionsAreValidated() {
        assertThatThrownBy(() -> sql("CREATE CATALOG x WITH ('type' = 'weir')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "One or more required options are missing.\n\n"
                                                        + "Missing required options are:\n\n"
                                                        + "warehouse"));
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE CATALOG x WITH ('type' = 'weir', 'warehouse' ="
                                                + " '/w', 'bucket' = '2')"))
                .satisfies(
                        e ->
                                assertThat(messages(e))
                                        .contains(
                                                "Unsupported options found for 'weir'.\n\n"
                                                        + "Unsupported options:\n\n"
                                                        + "bucket\n\n"
                                                        + "Supported options:\n\n"
                                                        + "default-database\n"
                                                        + "property-version\n"
                                                        + String.join(
                                                                "\n",
                                                                new TreeSet<>(
                                                                        StorageOptions.ALL
                                                                                .keySet()))
                                                        + "\nwarehouse"));
        assertThatThrownBy(
                        () ->
                                sql(
                                        "CREATE CATALOG x WITH ('type' = 'weir', 'warehouse' ="
                                                + " 'gs://b/w')"))
                .satisfies(
                        e ->
                                assertThat(String.join("\n", messages(e)))
                                        .contains(
                                                "Invalid value 'gs://b/w' for option 'warehouse':"
                                                        + " No file system for location 'gs://b/w':"
                                                        + " its scheme 'gs' is not among those on"
                                                        + " the classpath"));

        sql(
                "CREATE CATALOG x WITH ('type' = 'weir', 'warehouse' = '"
                        + warehouse.resolve("x")
                        + "', 'default-database' = 'main')");
        sql("USE CATALOG x");
        assertThat(query("SHOW DATABASES")).containsExactly(List.of("main"));
        assertThat(warehouse.resolve("x/main.db/.database")).isRegularFile();
    }

    private void assertCreateFails(String ddl, String message) {
        assertThatThrownBy(() -> sql(ddl))
                .satisfies(e -> assertThat(messages(e)).contains(message));
    }

    private void sql(String statement) {
        env.executeSql(statement);
    }

    private List<List<Object>> query(String statement) {
        List<List<Object>> rows = new ArrayList<>();
        for (Row r : CollectionUtil.iteratorToList(env.executeSql(statement).collect())) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < r.getArity(); i++) {
                values.add(r.getField(i));
            }
            rows.add(values);
        }
        return rows;
    }

    private static List<Object> row(Object... values) {
        return java.util.Arrays.asList(values);
    }

    static List<String> messages(Throwable e) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause()) {
            messages.add(t.getMessage());
        }
        return messages;
    }
}
