package io.weir.aws;

import io.weir.Table;
import io.weir.Tables;
import io.weir.aws.S3RequestCounts.Kind;
import io.weir.aws.testing.S3Server;
import io.weir.testing.Rows;

import org.junit.jupiter.api.Test;

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
}
