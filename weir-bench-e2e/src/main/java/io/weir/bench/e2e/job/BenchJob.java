package io.weir.bench.e2e.job;

import io.weir.bench.e2e.gen.DatagenSource;
import io.weir.bench.e2e.gen.SourceKind;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The main class of a benchmark child JVM: runs the phases of one run and prints one line per
 * phase, {@value #PREFIX}{@code {json}}, on stdout. Everything else it prints is log. An ingestion
 * stopped at its time limit ({@code stopped_after_s} in its line) ends the run: its table does not
 * hold the source's rows, so no later phase runs.
 */
public final class BenchJob {
    /** Marks the lines with figures. */
    public static final String PREFIX = "weir-bench-phase ";

    /** The rows every ingestion reads: the gen table, or a view over datagen. */
    private static final String SOURCE = "default_catalog.default_database.gen_source";

    private final JobSettings settings;
    private final SinkTable table;
    private boolean stopped;

    private BenchJob(JobSettings settings) {
        this.settings = settings;
        this.table = new SinkTable(settings);
    }

    public static void main(String[] args) {
        int exitCode = 0;
        try {
            BenchJob job = new BenchJob(JobSettings.parse(args));
            for (Phase phase : job.settings.phases()) {
                if (job.stopped) {
                    break;
                }
                System.out.println(PREFIX + job.run(phase));
                System.out.flush();
            }
        } catch (Throwable t) {
            t.printStackTrace();
            exitCode = 1;
        }
        // Flink and the connectors may leave non-daemon threads behind.
        System.exit(exitCode);
    }

    private JsonLine run(Phase phase) throws Exception {
        if (phase == Phase.INGEST) {
            return ingest();
        }
        if (!table.kind().writesTable()) {
            throw new IllegalArgumentException(
                    "Phase " + phase.id() + " needs a table; " + table.kind().id() + " has none");
        }
        TableEnvironment batch = Environments.batch(settings);
        declare(batch);
        if (phase == Phase.VERIFY) {
            return TableCheck.verify(batch, table, settings);
        }
        ProcessMeter meter = ProcessMeter.start();
        long rows = -1;
        switch (phase) {
            case COMPACT -> TableCompaction.compact(table, batch);
            case COUNT -> rows = count(batch);
            case SCAN -> batch.executeSql("INSERT INTO scan_sink " + table.selectColumns()).await();
            default -> throw new IllegalStateException("Unexpected phase " + phase);
        }
        JsonLine figures = meter.stop(phase);
        if (rows >= 0) {
            figures.put("rows", rows);
        }
        return figures.put("table_bytes", ProcessMeter.bytesUnder(table.tableDir()));
    }

    private JsonLine ingest() throws Exception {
        TableEnvironment env =
                settings.bulkInsert()
                        ? Environments.batch(settings)
                        : Environments.streaming(settings);
        declare(env);
        String insert =
                "INSERT INTO "
                        + table.qualifiedName()
                        + (settings.bulkInsert() ? " " + table.bulkInsertHint() : "")
                        + " "
                        + table.selectFrom(SOURCE);
        String countsUrl = settings.remote() == null ? null : settings.remote().countsUrl();
        String prefix = settings.remote() == null ? "" : settings.remote().countsPrefix();
        Map<String, Long> before = countsUrl == null ? Map.of() : RequestCounts.fetch(countsUrl);
        CommitProbe.countsUrl = countsUrl;
        CommitProbe.countsPrefix = prefix;
        // Followed from before the first commit: an in-job expiry may remove early commits.
        try (TableHistory history =
                settings.compaction() && table.kind().writesTable()
                        ? TableHistory.follow(table)
                        : null) {
            ProcessMeter meter = ProcessMeter.start();
            stopped = !awaitWithin(env.executeSql(insert), settings.timeLimitSeconds());
            JsonLine line = meter.stop(Phase.INGEST);
            if (stopped) {
                line.put("stopped_after_s", settings.timeLimitSeconds());
            }
            if (countsUrl != null) {
                // What the sink asked of the store during the ingestion: the proxy's or the
                // NameNode's counters.
                RequestCounts.fetch(countsUrl)
                        .forEach((k, v) -> line.put(prefix + k, v - before.getOrDefault(k, 0L)));
            }
            CommitProbe probe = CommitProbe.current();
            if (probe != null && !settings.bulkInsert()) {
                probe.addTo(line);
            }
            if (history != null) {
                // After the figures above were taken: the rest of the history is not part of them.
                line.put("table_files", TableHistory.filesUnder(table.tableDir()));
                CompactionHistory replayed = history.finish();
                if (replayed != null) {
                    replayed.addTo(line);
                }
            }
            return line.put("table_bytes", ProcessMeter.bytesUnder(table.tableDir()));
        }
    }

    /**
     * Waits for a job to end; with a limit ({@code seconds} > 0) cancels it at the limit, waits
     * until it has stopped and returns false.
     */
    private static boolean awaitWithin(TableResult result, long seconds) throws Exception {
        if (seconds <= 0) {
            result.await();
            return true;
        }
        try {
            result.await(seconds, TimeUnit.SECONDS);
            return true;
        } catch (TimeoutException e) {
            JobClient job = result.getJobClient().orElseThrow();
            job.cancel().get();
            try {
                job.getJobExecutionResult().get();
            } catch (ExecutionException cancelled) {
                // what a cancelled job's result is
            }
            return false;
        }
    }

    /** The source, the sink's table and the scan's blackhole in a new environment. */
    private void declare(TableEnvironment env) {
        String columns = settings.workload().columnsDdl();
        if (settings.source() == SourceKind.DATAGEN) {
            DatagenSource.statements(settings.workload(), settings.rows(), settings.keys(), SOURCE)
                    .forEach(env::executeSql);
        } else {
            env.executeSql(
                    "CREATE TEMPORARY TABLE "
                            + SOURCE
                            + " ("
                            + columns
                            + ") WITH ('connector' = 'weir-bench-gen', 'workload' = '"
                            + settings.workload().id()
                            + "', 'rows' = '"
                            + settings.rows()
                            + "', 'unique-keys' = '"
                            + settings.bulkInsert()
                            + (settings.bulkInsert() ? "" : "', 'keys' = '" + settings.keys())
                            + "')");
        }
        env.executeSql(
                "CREATE TEMPORARY TABLE default_catalog.default_database.scan_sink ("
                        + columns
                        + ") WITH ('connector' = 'blackhole')");
        for (String statement : table.declare()) {
            env.executeSql(statement);
        }
    }

    private long count(TableEnvironment batch) throws Exception {
        try (CloseableIterator<Row> it =
                batch.executeSql("SELECT COUNT(*) FROM " + table.qualifiedName()).collect()) {
            return ((Number) it.next().getField(0)).longValue();
        }
    }
}
