package io.weir.flink.lookup;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.data.BinaryRowWriter;
import io.weir.flink.FileIOLoader;
import io.weir.flink.FlinkTypes;
import io.weir.types.DataTypes;

import org.apache.flink.table.data.GenericRowData;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The lookup function alone, outside Flink (docs/lookup-join.md): a table of {@code rows} rows
 * {@code (id BIGINT, name STRING, country STRING, v BIGINT)}, 4 buckets, then {@code lookups}
 * random probes of ids below {@code 1.25 * rows} on one thread, with the primary key or {@code v}
 * as the join key. Prints ns and bytes allocated per lookup, the live heap and the index files'
 * size. Arguments: {@code workDir rows lookups}. Run it with a heap smaller than the index (e.g.
 * {@code -Xmx256m} for 3 M rows) to see the index live outside the heap.
 */
public final class LookupFunctionBench {
    private LookupFunctionBench() {}

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args[0]);
        long rows = Long.parseLong(args[1]);
        long lookups = Long.parseLong(args[2]);
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("name", DataTypes.STRING())
                        .column("country", DataTypes.STRING())
                        .column("v", DataTypes.BIGINT())
                        .primaryKey("id")
                        .build();
        String location = work.resolve("dim").toString();
        // A small sort buffer, so that the table can be written under a heap smaller than the
        // index.
        Table table =
                Tables.create(
                        location, schema, Map.of("bucket", "4", "write-buffer-size", "32 mb"));
        try (TableWrite write = table.newBulkWrite().create()) {
            String[] countries = {"DE", "FR", "US", "JP"};
            for (long id = 0; id < rows; id++) {
                write.write(
                        BinaryRowWriter.toRow(
                                schema.rowType(),
                                id,
                                "customer-" + id,
                                countries[(int) (id % 4)],
                                id * 7));
            }
            List<DataFile> files = write.prepareCommit();
            table.newAppend().addFiles(files).commit();
        }
        for (String join : List.of("pk", "nonkey")) {
            run(work, location, schema, join, rows, lookups);
        }
    }

    private static void run(
            Path work, String location, Schema schema, String join, long rows, long lookups)
            throws Exception {
        Path local = Files.createDirectories(work.resolve("local-" + join));
        boolean pk = join.equals("pk");
        WeirLookupFunction f =
                new WeirLookupFunction(
                        location,
                        FileIOLoader.of(location),
                        schema.rowType().names(),
                        FlinkTypes.toFlink(schema),
                        new int[] {pk ? 0 : 3},
                        schema.primaryKey(),
                        Map.of("lookup.local-dir", local.toString()));
        long loadStart = System.nanoTime();
        f.open();
        // Load every group before timing (lazily loaded groups would count as lookups).
        GenericRowData key = new GenericRowData(1);
        for (long id = 0; id < 64; id++) {
            key.setField(0, pk ? id : id * 7);
            f.lookup(key);
        }
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        SplittableRandom random = new SplittableRandom(42);
        long bound = rows + rows / 4;
        long hits = 0;
        for (int pass = 0; pass < 2; pass++) { // the first pass warms up the JIT
            hits = 0;
            long bytes0 = threads.getThreadAllocatedBytes(thread);
            long t0 = System.nanoTime();
            for (long i = 0; i < lookups; i++) {
                long id = random.nextLong(bound);
                key.setField(0, pk ? id : id * 7);
                hits += f.lookup(key).size();
            }
            long nanos = System.nanoTime() - t0;
            long bytes = threads.getThreadAllocatedBytes(thread) - bytes0;
            if (pass == 1) {
                System.gc();
                long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                System.out.println(
                        String.format(
                                Locale.ROOT,
                                "RESULT %s rows=%d lookups=%d hits=%d ns/lookup=%.0f"
                                        + " lookups/s=%.0f bytes/lookup=%.0f liveHeapMiB=%.0f"
                                        + " indexMiB=%.0f groups=%d load=%.1fs",
                                join,
                                rows,
                                lookups,
                                hits,
                                (double) nanos / lookups,
                                lookups * 1e9 / nanos,
                                (double) bytes / lookups,
                                heap / 1048576.0,
                                f.localTable().indexBytes() / 1048576.0,
                                f.localTable().loadedGroups(),
                                loadSeconds));
            }
        }
        f.close();
    }
}
