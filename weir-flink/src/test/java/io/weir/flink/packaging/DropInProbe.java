package io.weir.flink.packaging;

import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.data.RowReader;
import io.weir.io.FileIOs;
import io.weir.options.StorageOptions;
import io.weir.types.DataTypes;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs in a JVM whose classpath is Flink's jars, the connector jar and this class only ({@link
 * ConnectorJarIT} starts it): proves that the connector jar works when dropped into a Flink 1.20
 * distribution. Prints one line per check; exits non-zero on the first failure.
 *
 * <p>Arguments: a work directory, then the class names that weir-flink registers as {@code
 * org.apache.flink.table.factories.Factory} services (none while the factories are unwired).
 */
public final class DropInProbe {
    private DropInProbe() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        List<String> weirFactories = List.of(args).subList(1, args.length);
        String connectorJar = System.getProperty("weir.connector.jar");

        // Weir's classes and its relocated libraries come from the connector jar; the original
        // packages are not on the classpath at all.
        check(
                codeSource(Tables.class).equals(connectorJar),
                "weir-core from " + codeSource(Tables.class));
        for (String relocated :
                List.of(
                        "io.weir.shaded.com.fasterxml.jackson.databind.ObjectMapper",
                        "io.weir.shaded.org.apache.parquet.hadoop.ParquetFileWriter",
                        "io.weir.shaded.org.apache.hadoop.conf.Configuration")) {
            check(codeSource(Class.forName(relocated)).equals(connectorJar), relocated);
        }
        for (String original :
                List.of(
                        "com.fasterxml.jackson.databind.ObjectMapper",
                        "org.apache.parquet.hadoop.ParquetFileWriter",
                        "org.apache.hadoop.conf.Configuration")) {
            check(!loadable(original), "no " + original + " on the classpath");
        }
        System.out.println(
                "OK classes: weir and its relocated libraries load from the connector jar");

        checkFactories(weirFactories);
        for (String[] codecs : new String[][] {{"lz4", "snappy"}, {"zstd", "zstd"}}) {
            writeAndRead(dir.resolve("t-" + codecs[0] + "-" + codecs[1]), codecs[0], codecs[1]);
        }
        String s3Endpoint = System.getProperty("weir.s3.endpoint");
        if (s3Endpoint != null) {
            // The relocated AWS SDK, found through the FileIOProvider service.
            writeAndRead(
                    System.getProperty("weir.s3.location"),
                    "lz4",
                    "zstd",
                    Map.of(
                            "s3.endpoint",
                            s3Endpoint,
                            "s3.path-style-access",
                            "true",
                            "s3.region",
                            "us-east-1",
                            "s3.access-key",
                            System.getProperty("weir.s3.access-key"),
                            "s3.secret-key",
                            System.getProperty("weir.s3.secret-key")));
            System.out.println("OK s3: a table on " + s3Endpoint);
        }
        runFlinkSql();
        if (weirFactories.contains("io.weir.flink.catalog.WeirCatalogFactory")) {
            catalogDdl(dir.resolve("warehouse"));
        }
        hdfs(Path.of(System.getProperty("weir.hdfs.handover")));
        System.out.println("DONE");
    }

    /** Each weir factory is a service that Flink's factory discovery finds by its identifier. */
    private static void checkFactories(List<String> expectedClasses) {
        Map<String, Factory> weir = new TreeMap<>();
        for (Factory f : ServiceLoader.load(Factory.class)) {
            if (f.getClass().getName().startsWith("io.weir.")) {
                weir.put(f.getClass().getName(), f);
            }
        }
        check(
                weir.keySet().equals(new java.util.TreeSet<>(expectedClasses)),
                "weir factory services " + weir.keySet() + ", expected " + expectedClasses);
        ClassLoader cl = DropInProbe.class.getClassLoader();
        for (Factory f : weir.values()) {
            String id = f.factoryIdentifier();
            if (f instanceof DynamicTableFactory) {
                Factory found = FactoryUtil.discoverFactory(cl, DynamicTableFactory.class, id);
                check(found.getClass() == f.getClass(), "table factory '" + id + "'");
            }
            if (f instanceof CatalogFactory) {
                Factory found = FactoryUtil.discoverFactory(cl, CatalogFactory.class, id);
                check(found.getClass() == f.getClass(), "catalog factory '" + id + "'");
            }
            System.out.println("OK factory '" + id + "': " + f.getClass().getName());
        }
        System.out.println("OK factories: " + weir.size() + " weir factories discovered");
    }

    /**
     * Writes a table (log files with {@code logCodec}), reads it, compacts it into Parquet base
     * files ({@code fileCompression}) and reads it again: jackson (commit files), lz4 or zstd-jni,
     * parquet, hadoop and snappy-java or zstd-jni, all from the connector jar.
     */
    private static void writeAndRead(Path location, String logCodec, String fileCompression)
            throws Exception {
        writeAndRead(location.toString(), logCodec, fileCompression, Map.of());
    }

    /**
     * Writes two commits, reads them, compacts and reads again; {@code storage} holds the storage
     * options ({@code s3.*}) of a location that is not local.
     */
    private static void writeAndRead(
            String location, String logCodec, String fileCompression, Map<String, String> storage)
            throws Exception {
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("name", DataTypes.STRING())
                        .primaryKey("id")
                        .build();
        Map<String, String> options = new TreeMap<>(storage);
        options.putAll(
                Map.of(
                        "bucket", "2",
                        "log.codec", logCodec,
                        "file.compression", fileCompression));
        Table table = Tables.create(location, schema, options);
        for (int commit = 0; commit < 2; commit++) {
            try (TableWrite write = table.newWrite().create()) {
                for (long id = 0; id < 200; id += commit + 1) {
                    RowKind kind = commit == 0 ? RowKind.INSERT : RowKind.UPDATE_AFTER;
                    write.write(
                            BinaryRowWriter.toRow(schema.rowType(), kind, id, name(id, commit)));
                }
                table.newAppend().addFiles(write.prepareCommit()).commit();
            }
        }
        Map<Long, String> expected = expectedRows();
        table.refresh();
        check(read(table).equals(expected), "read logs (" + logCodec + ")");
        table.newCompaction().full().execute();
        table.refresh();
        boolean parquet =
                table.io().listRecursive(location).stream()
                        .anyMatch(f -> f.path().endsWith(".parquet"));
        check(parquet, "compaction wrote Parquet base files");
        check(
                read(Tables.load(location, StorageOptions.of(storage))).equals(expected),
                "read base files");
        System.out.println(
                "OK table: "
                        + expected.size()
                        + " rows written and read, log codec "
                        + logCodec
                        + ", base files "
                        + fileCompression);
    }

    /**
     * The rows of a table that {@link #writeAndRead} wrote, from a model: commit 0 inserts ids 0 to
     * 199, commit 1 updates the even ones.
     */
    static Map<Long, String> expectedRows() {
        Map<Long, String> rows = new TreeMap<>();
        for (int commit = 0; commit < 2; commit++) {
            for (long id = 0; id < 200; id += commit + 1) {
                rows.put(id, name(id, commit));
            }
        }
        return rows;
    }

    private static String name(long id, int commit) {
        return "name-" + id + "-" + commit + "-" + "x".repeat((int) id % 40);
    }

    /**
     * The relocated HDFS client, found through the FileIOProvider service, writes and reads a table
     * on a real NameNode and DataNode: every call is Hadoop RPC, whose protocol names the
     * relocation must leave alone (docs/packaging.md). Last, because ConnectorJarIT starts the
     * cluster while this JVM runs the other checks: it writes {@code handover} when the cluster is
     * up, the table's location on its first line and a storage option ({@code key=value}) on each
     * further line.
     */
    private static void hdfs(Path handover) throws Exception {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MINUTES.toNanos(3);
        while (!Files.exists(handover)) {
            check(System.nanoTime() < deadline, "hdfs: no cluster within 3 min (" + handover + ")");
            Thread.sleep(50);
        }
        List<String> lines = Files.readAllLines(handover);
        String location = lines.get(0);
        Map<String, String> options = new TreeMap<>();
        for (String option : lines.subList(1, lines.size())) {
            int eq = option.indexOf('=');
            options.put(option.substring(0, eq), option.substring(eq + 1));
        }
        long up = System.nanoTime();
        String io = FileIOs.forLocation(location, StorageOptions.of(options)).getClass().getName();
        check(io.equals("io.weir.hadoop.HadoopFileIO"), "hdfs: served by " + io);
        writeAndRead(location, "zstd", "snappy", options);
        System.out.println(
                "OK hdfs: a table on "
                        + location
                        + " through "
                        + io
                        + " ("
                        + TimeUnit.NANOSECONDS.toMillis(up - start)
                        + " ms waiting for the cluster, "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - up)
                        + " ms writing and reading)");
    }

    static Map<Long, String> read(Table table) {
        Map<Long, String> rows = new TreeMap<>();
        try (RowReader reader = table.newScan().rows()) {
            while (reader.next()) {
                BinaryRow row = reader.row();
                rows.put(row.getLong(0), row.getString(1));
            }
        }
        return rows;
    }

    /** Flink itself still works with the connector jar on its classpath. */
    private static void runFlinkSql() throws Exception {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                env.executeSql("SELECT COUNT(*) FROM (VALUES (1), (2), (3)) AS t(x)").collect()) {
            it.forEachRemaining(rows::add);
        }
        check(rows.size() == 1 && rows.get(0).getField(0).equals(3L), "Flink SQL job: " + rows);
        System.out.println("OK flink: a SQL job runs with the connector jar on the classpath");
    }

    /**
     * The weir catalog from SQL: CREATE CATALOG / DATABASE / TABLE create a Weir table that the
     * core API (from the connector jar) loads and writes, and that SQL then lists and describes.
     */
    private static void catalogDdl(Path warehouse) throws Exception {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        env.executeSql(
                "CREATE CATALOG lake WITH ('type' = 'weir', 'warehouse' = '" + warehouse + "')");
        env.executeSql("CREATE DATABASE lake.sales");
        env.executeSql(
                "CREATE TABLE lake.sales.orders (order_id BIGINT, status STRING,"
                        + " PRIMARY KEY (order_id) NOT ENFORCED) WITH ('bucket' = '2')");
        Table table = Tables.load(warehouse.resolve("sales.db").resolve("orders").toString());
        check(
                table.schema().primaryKey().equals(List.of("order_id")),
                "catalog table's primary key: " + table.schema().primaryKey());
        try (TableWrite write = table.newWrite().create()) {
            write.write(BinaryRowWriter.toRow(table.schema().rowType(), 1L, "NEW"));
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
        check(read(table).equals(Map.of(1L, "NEW")), "catalog table written with the core API");
        List<String> tables = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql("SHOW TABLES IN lake.sales").collect()) {
            it.forEachRemaining(r -> tables.add(String.valueOf(r.getField(0))));
        }
        check(tables.equals(List.of("orders")), "SHOW TABLES IN lake.sales: " + tables);
        System.out.println("OK catalog: CREATE CATALOG/DATABASE/TABLE made a Weir table");

        // The SQL sink and source from the shaded jar: an upsert and a new key, read back.
        env.executeSql("INSERT INTO lake.sales.orders VALUES (1, 'PAID'), (2, 'NEW')").await();
        Map<Long, String> rows = new TreeMap<>();
        try (CloseableIterator<Row> it =
                env.executeSql("SELECT order_id, status FROM lake.sales.orders").collect()) {
            it.forEachRemaining(r -> rows.put((Long) r.getField(0), (String) r.getField(1)));
        }
        check(
                rows.equals(Map.of(1L, "PAID", 2L, "NEW")),
                "INSERT then SELECT through SQL: " + rows);
        table.refresh();
        check(read(table).equals(rows), "the SQL write read with the core API");
        System.out.println("OK sql: INSERT INTO and SELECT through the weir sink and source");
    }

    private static String codeSource(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private static boolean loadable(String className) {
        try {
            Class.forName(className, false, DropInProbe.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAILED " + what);
            System.exit(1);
        }
    }
}
