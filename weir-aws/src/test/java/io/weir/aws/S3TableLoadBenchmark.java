package io.weir.aws;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.aws.testing.S3Server;
import io.weir.data.BinaryRowWriter;
import io.weir.types.DataTypes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How long loading a table with many commits takes from the local S3 server, and what it costs in
 * requests: a benchmark, not a test of time (nothing is asserted about it). Run with {@code ./mvnw
 * -o -pl weir-aws test -Dtest=S3TableLoadBenchmark -Dweir.bench=true -Dweir.skipCoreSuitesOnS3=true
 * [-Dweir.bench.commits=10000]}; docs/s3.md has the figures.
 */
@EnabledIfSystemProperty(named = "weir.bench", matches = "true")
class S3TableLoadBenchmark {

    @Test
    void loadATableWithManyCommits() throws Exception {
        int commits = Integer.getInteger("weir.bench.commits", 10_000);
        S3Server server = S3Server.get();
        String location = "s3://" + S3Server.BUCKET + "/load-" + UUID.randomUUID() + "/t";
        try (S3FileIO io = new S3FileIO(server.options())) {
            Schema schema =
                    Schema.builder()
                            .column("id", DataTypes.BIGINT())
                            .column("v", DataTypes.STRING())
                            .primaryKey("id")
                            .build();
            Table table = Tables.create(io, location, schema, Map.of("bucket", "1"));
            // Each commit replaces the table's one row with a new file, so the state stays small;
            // what is measured is finding the latest commit and rebuilding the state from the
            // last checkpoint and the commits after it.
            long start = System.nanoTime();
            S3RequestCounts before = io.requestCounts();
            for (int c = 1; c <= commits; c++) {
                List<DataFile> files;
                try (TableWrite write = table.newWrite().create()) {
                    write.write(BinaryRowWriter.toRow(schema.rowType(), 1L, "v" + c));
                    files = write.prepareCommit();
                }
                table.newOverwrite().overwriteAll().addFiles(files).commit();
            }
            double writeSeconds = (System.nanoTime() - start) / 1e9;
            S3RequestCounts writeCost = io.requestCounts().minus(before);
            System.out.printf(
                    "BENCH %d commits in %.1f s (%.1f ms each), %s%n",
                    commits, writeSeconds, writeSeconds * 1000 / commits, writeCost);

            List<Double> millis = new ArrayList<>();
            S3RequestCounts loadCost = null;
            for (int i = 0; i < 7; i++) {
                try (S3FileIO fresh = new S3FileIO(server.options())) {
                    long t0 = System.nanoTime();
                    Table loaded = Tables.load(fresh, location);
                    millis.add((System.nanoTime() - t0) / 1e6);
                    assertThat(loaded.currentSnapshot().id()).isEqualTo(commits);
                    loadCost = fresh.requestCounts();
                }
            }
            millis.sort(null);
            System.out.printf(
                    "BENCH load of a table at commit %d with a fresh client: median %.0f ms (min"
                            + " %.0f, max %.0f over 7), %s%n",
                    commits, millis.get(3), millis.get(0), millis.get(6), loadCost);
        }
    }
}
