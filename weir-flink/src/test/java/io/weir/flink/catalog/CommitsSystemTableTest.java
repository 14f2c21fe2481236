package io.weir.flink.catalog;

import io.weir.Table;
import io.weir.Tables;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code t$commits} and {@code t$snapshots}: a row per commit, with its file and record counts. */
class CommitsSystemTableTest extends SystemTablesFixture {
    @Test
    void commitsShowEachCommitWithItsFileAndRecordCounts() throws Exception {
        makeCommits();
        long baseA = size(table.commit(3).added().get(0));
        long baseB = size(table.commit(3).added().get(1));
        long logB = size(table.commit(4).added().get(0));
        long logs1 = sizes(table.commit(1).added());
        long logs2 = sizes(table.commit(2).added());
        // SQL promises no order without ORDER BY: the planner may rebalance the source's rows.
        List<List<Object>> all =
                List.of(
                        row(1L, time(1), "APPEND", 3L, 0L, 2, 0, "w1", 1L, 0, null, 2L, 3L, logs1),
                        row(
                                2L,
                                time(2),
                                "APPEND",
                                2L,
                                0L,
                                2,
                                0,
                                "w1",
                                2L,
                                0,
                                null,
                                4L,
                                5L,
                                logs1 + logs2),
                        // The compaction folds 2 + 1 records of partition a and 1 + 1 of b.
                        row(
                                3L,
                                time(3),
                                "COMPACT",
                                4L,
                                5L,
                                2,
                                4,
                                null,
                                null,
                                0,
                                null,
                                2L,
                                4L,
                                baseA + baseB),
                        // The overwrite of b replaces its base (2 records) with 1 record.
                        row(
                                4L,
                                time(4),
                                "OVERWRITE",
                                1L,
                                2L,
                                1,
                                1,
                                "w2",
                                7L,
                                0,
                                null,
                                2L,
                                3L,
                                baseA + logB));
        assertThat(query("SELECT * FROM c.db.`t$commits` ORDER BY commit_id")).isEqualTo(all);
        assertThat(query("SELECT * FROM c.db.`t$snapshots` ORDER BY commit_id")).isEqualTo(all);
        assertThat(
                        query(
                                "SELECT commit_kind, SUM(records_added - records_removed) FROM"
                                        + " c.db.`t$commits` GROUP BY commit_kind"))
                .containsExactlyInAnyOrder(
                        row("APPEND", 5L), row("COMPACT", -1L), row("OVERWRITE", -1L));
        // As of snapshot 2, by id or by tag.
        table.tags().create("two", 2);
        for (String option : List.of("'scan.snapshot-id' = '2'", "'scan.tag-name' = 'two'")) {
            assertThat(
                            query(
                                    "SELECT * FROM c.db.`t$commits` /*+ OPTIONS("
                                            + option
                                            + ") */ ORDER BY commit_id"))
                    .isEqualTo(all.subList(0, 2));
        }
    }

    /** A damaged commit that a rollback abandoned (the repair of a table) has no row. */
    @Test
    void commitsLeaveOutADamagedCommitThatARollbackAbandoned() throws Exception {
        makeCommits();
        long bases = sizes(table.commit(3).added());
        List<List<Object>> kept =
                new ArrayList<>(query("SELECT * FROM c.db.`t$commits` WHERE commit_id <= 3"));
        kept.sort(java.util.Comparator.comparing(r -> (Long) r.get(0)));
        Files.writeString(
                Path.of(table.location(), "_weir/commits/00000000000000000004.json"), "{ damaged");
        Table damaged = Tables.load(table.location());
        assertThat(damaged.rollbackTo(3).id()).isEqualTo(5);

        List<List<Object>> expected = new ArrayList<>(kept);
        expected.add(
                row(
                        5L,
                        Instant.ofEpochMilli(damaged.commit(5).timestampMillis()),
                        "ROLLBACK",
                        0L,
                        0L,
                        0,
                        0,
                        null,
                        null,
                        0,
                        3L,
                        2L,
                        4L,
                        bases));
        assertThat(query("SELECT * FROM c.db.`t$commits` ORDER BY commit_id")).isEqualTo(expected);
    }
}
