package io.weir.flink.lookup;

import io.weir.Table;
import io.weir.Tables;
import io.weir.io.FileIO;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.function.SerializableSupplier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The lookup function of a Weir dimension table: answers each key from a {@link LocalTable} of the
 * latest snapshot, which it refreshes when a lookup arrives at least {@code
 * lookup.refresh-interval} after the last check (docs/lookup-join.md).
 */
public final class WeirLookupFunction extends LookupFunction {
    private static final long serialVersionUID = 1L;

    private final String location;
    private final SerializableSupplier<FileIO> io;
    private final ArrayList<String> columns;
    private final RowType rowType;
    private final int[] keys;
    private final ArrayList<String> primaryKey;
    private final long refreshNanos;
    private final String localDir;
    private final int schemaId;

    private transient LocalTable local;
    private transient Path dir;
    private transient long nextRefresh;
    private transient volatile long loadedAtClose;

    /**
     * @param rowType the rows returned: the table's columns {@code columns}
     * @param keys the positions in {@code rowType} of the join key's fields, in the order of the
     *     planner's key rows
     * @param primaryKey the table's primary key (empty for an append-only table)
     * @param options the table's options; the lookup options among them are used
     */
    public WeirLookupFunction(
            String location,
            SerializableSupplier<FileIO> io,
            List<String> columns,
            RowType rowType,
            int[] keys,
            List<String> primaryKey,
            Map<String, String> options) {
        this(location, io, columns, rowType, keys, primaryKey, options, -1);
    }

    /**
     * As the other constructor, returning the columns of schema version {@code schemaId} (the one
     * the query was planned with; -1: the current one when the function opens), whatever schema
     * changes follow.
     */
    public WeirLookupFunction(
            String location,
            SerializableSupplier<FileIO> io,
            List<String> columns,
            RowType rowType,
            int[] keys,
            List<String> primaryKey,
            Map<String, String> options,
            int schemaId) {
        this.schemaId = schemaId;
        this.location = location;
        this.io = io;
        this.columns = new ArrayList<>(columns);
        this.rowType = rowType;
        this.keys = keys.clone();
        this.primaryKey = new ArrayList<>(primaryKey);
        this.refreshNanos = WeirLookupOptions.refreshInterval(options).toNanos();
        this.localDir = WeirLookupOptions.localDir(options);
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        open();
        // How much of the table this subtask holds: with the bucket shuffle (Flink 2), only its
        // buckets' groups (docs/metrics.md).
        context.getMetricGroup().addGroup("weir").gauge("loadedFileGroups", this::loadedFileGroups);
    }

    /** Opens the function outside a Flink task (benchmarks, tests). */
    void open() throws IOException {
        Table table = Tables.load(io.get(), location);
        Path base = Path.of(localDir != null ? localDir : System.getProperty("java.io.tmpdir"));
        Files.createDirectories(base);
        dir = Files.createTempDirectory(base, "weir-lookup-");
        int schema = schemaId >= 0 ? schemaId : table.metadata().schemaId();
        local =
                new LocalTable(
                        table, schema, columns, new LookupKeys(rowType, keys, primaryKey), dir);
        local.refresh();
        nextRefresh = System.nanoTime() + refreshNanos;
    }

    @Override
    public Collection<RowData> lookup(RowData keyRow) {
        long now = System.nanoTime();
        if (now - nextRefresh >= 0) {
            local.refresh();
            nextRefresh = now + refreshNanos;
        }
        return local.find(keyRow);
    }

    /** File groups held locally; after close, those held when it closed (reporters read late). */
    private long loadedFileGroups() {
        LocalTable table = local;
        return table != null ? table.loadedGroups() : loadedAtClose;
    }

    /** The local table (tests and benchmarks read its counters). */
    LocalTable localTable() {
        return local;
    }

    /** The interval between checks for new commits. */
    Duration refreshInterval() {
        return Duration.ofNanos(refreshNanos);
    }

    @Override
    public void close() throws Exception {
        if (local != null) {
            loadedAtClose = local.loadedGroups();
            local.close();
            local = null;
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot delete lookup directory " + dir, e);
            }
            dir = null;
        }
    }
}
