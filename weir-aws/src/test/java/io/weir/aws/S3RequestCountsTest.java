package io.weir.aws;

import io.weir.DataFile;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.aws.S3RequestCounts.Kind;
import io.weir.aws.testing.S3Server;
import io.weir.data.BinaryRowWriter;
import io.weir.testing.Rows;
import io.weir.types.DataTypes;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a commit and a table load cost in S3 requests, counted by {@link S3FileIO#requestCounts()}
 * and printed, so that a change that adds requests shows up here first.
 */
class S3RequestCountsTest {

    @Test
    void requestsPerCommitAndPerLoad() {
        S3Server server = S3Server.get();
        String location = "s3://" + S3Server.BUCKET + "/counts-" + UUID.randomUUID() + "/t";
        try (S3FileIO io = new S3FileIO(server.options())) {
            S3RequestCounts start = io.requestCounts();
            TestTable t = TestTable.create(io, location);
            System.out.println("REQUESTS create table: " + io.requestCounts().minus(start));

            S3RequestCounts before = io.requestCounts();
            int commits = 12;
            for (int c = 1; c <= commits; c++) {
                S3RequestCounts one = io.requestCounts();
                t.commit("w", c, Map.of(c, (long) c));
                S3RequestCounts cost = io.requestCounts().minus(one);
                // One data file (HEAD at create, PUT), one conditional PUT of the commit, the
                // LATEST hint, the reads that find the base: a handful, never a listing.
                assertThat(cost.get(Kind.PUT)).as("commit %d: %s", c, cost).isBetween(3L, 4L);
                System.out.println("REQUESTS commit " + c + ": " + cost);
                if (c > 1) {
                    // The first commit lists commits/ (no LATEST hint yet); later ones do not.
                    assertThat(cost.get(Kind.LIST)).as("commit %d: %s", c, cost).isZero();
                }
            }
            S3RequestCounts perCommit = io.requestCounts().minus(before);
            System.out.printf(
                    "REQUESTS %d commits of one data file each: %s; %.1f per commit%n",
                    commits, perCommit, (double) perCommit.total() / commits);

            before = io.requestCounts();
            Table loaded = Tables.load(io, location);
            assertThat(loaded.currentSnapshot().id()).isEqualTo(commits);
            S3RequestCounts load = io.requestCounts().minus(before);
            System.out.println("REQUESTS load table at commit " + commits + ": " + load);
            // Below the checkpoint interval (50): the schema, the LATEST hint and every commit,
            // one listing of checkpoints/ (none yet), and a HEAD for the next commit id.
            assertThat(load.get(Kind.LIST)).isLessThanOrEqualTo(1);
            assertThat(load.get(Kind.GET)).isLessThanOrEqualTo(commits + 3);
            assertThat(load.get(Kind.PUT)).isZero();

            before = io.requestCounts();
            assertThat(Rows.readAll(loaded.newScan().rows(), TestTable.TYPE, false))
                    .hasSize(commits);
            System.out.println(
                    "REQUESTS read all rows ("
                            + commits
                            + " log files): "
                            + io.requestCounts().minus(before));
        }
    }

    /**
     * The commit itself, apart from writing its data files: 3 requests (the conditional PUT of the
     * commit, which also finds out whether a newer commit exists; one GET of the expiry marker,
     * which tells that the id was not free because of expiry; the LATEST hint), plus one HEAD per
     * new file; and reading data files costs one GET each (their lengths come from the metadata).
     */
    @Test
    void aCommitCostsThreeRequestsPlusOnePerNewFile() throws Exception {
        S3Server server = S3Server.get();
        String location = "s3://" + S3Server.BUCKET + "/commit-cost-" + UUID.randomUUID() + "/t";
        try (S3FileIO io = new S3FileIO(server.options())) {
            Schema schema =
                    Schema.builder()
                            .column("id", DataTypes.BIGINT())
                            .column("v", DataTypes.STRING())
                            .primaryKey("id")
                            .build();
            Table table =
                    Tables.create(io, location, schema, Map.of("bucket", "4", "log.codec", "lz4"));
            for (int c = 1; c <= 5; c++) {
                List<DataFile> files;
                try (TableWrite write = table.newWrite().create()) {
                    for (long id = 0; id < 100; id++) {
                        write.write(
                                BinaryRowWriter.toRow(schema.rowType(), id, "v" + c + "-" + id));
                    }
                    files = write.prepareCommit();
                }
                assertThat(files).hasSize(4);
                S3RequestCounts before = io.requestCounts();
                table.newAppend().addFiles(files).commit();
                S3RequestCounts cost = io.requestCounts().minus(before);
                System.out.println("REQUESTS commit of 4 files " + c + ": " + cost);
                // One HEAD per new file (a commit never publishes a file that is gone), the
                // conditional PUT, the expiry marker's GET, the LATEST PUT: the target of 3 plus
                // one per new file (docs/s3.md). The table's first commit also looks for commits
                // with listings.
                if (c > 1) {
                    assertThat(cost.total())
                            .as("commit %d: %s", c, cost)
                            .isLessThanOrEqualTo(3 + files.size());
                    assertThat(cost.get(Kind.LIST)).as("commit %d: %s", c, cost).isZero();
                    assertThat(cost.get(Kind.HEAD))
                            .as("commit %d: %s", c, cost)
                            .isEqualTo(files.size());
                }
            }
            S3RequestCounts before = io.requestCounts();
            assertThat(Rows.readAll(table.newScan().rows(), schema.rowType(), false)).hasSize(100);
            S3RequestCounts read = io.requestCounts().minus(before);
            long dataFiles = table.currentSnapshot().files().size();
            System.out.println("REQUESTS read of " + dataFiles + " data files: " + read);
            assertThat(read.get(Kind.HEAD)).as("read: %s", read).isZero();
            assertThat(read.get(Kind.GET)).as("read: %s", read).isEqualTo(dataFiles);
        }
    }
}
