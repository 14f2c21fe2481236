package io.weir.bench.e2e.job;

import org.apache.flink.table.api.TableEnvironment;

import java.lang.reflect.InvocationTargetException;

/**
 * Compacts everything a sink wrote, the way each project does it for a table written without
 * compaction: its own offline compaction job, on this JVM's local Flink, with the run's
 * parallelism.
 *
 * <ul>
 *   <li>Weir: {@code io.weir.flink.compaction.CompactionJob --full} (docs/table-services.md).
 *   <li>Paimon: the {@code sys.compact} procedure with {@code compact_strategy => 'full'} (batch).
 *   <li>Hudi: {@code org.apache.hudi.sink.compact.HoodieFlinkCompactor --schedule}: schedules a
 *       compaction plan of every file slice with log files and executes it.
 * </ul>
 *
 * The Weir and Hudi jobs are called by name: each is only on its own sink's classpath.
 */
final class TableCompaction {
    private TableCompaction() {}

    static void compact(SinkTable table, TableEnvironment batch) throws Exception {
        String parallelism = String.valueOf(table.parallelism());
        String dir = table.tableDir().toString();
        switch (table.kind()) {
            case WEIR, WEIR2 ->
                    runMain(
                            "io.weir.flink.compaction.CompactionJob",
                            "--table",
                            dir,
                            "--full",
                            "--parallelism",
                            parallelism);
            case PAIMON, PAIMON2 ->
                    batch.executeSql(
                                    "CALL paimon.sys.compact(`table` => 'default."
                                            + SinkTable.NAME
                                            + "', compact_strategy => 'full')")
                            .await();
            case HUDI ->
                    runMain(
                            "org.apache.hudi.sink.compact.HoodieFlinkCompactor",
                            "--path",
                            table.tableDir().toUri().toString(),
                            "--schedule",
                            "--compaction-delta-commits",
                            "1",
                            "--compaction-tasks",
                            parallelism);
            case BLACKHOLE, BLACKHOLE2, SHUFFLE, BLACKHOLE117 ->
                    throw new IllegalArgumentException(
                            table.kind().id() + " writes no table: nothing to compact");
        }
    }

    private static void runMain(String className, String... args) throws Exception {
        try {
            Class.forName(className).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
