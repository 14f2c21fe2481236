package io.weir.flink.catalog;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The system tables as a whole: what a new table shows, their names, that they are read-only, and
 * the options they take.
 */
class SystemTablesTest extends SystemTablesFixture {
    @Test
    void aNewTableHasOnlyItsSchemaAndOptions() {
        for (String empty :
                List.of(
                        "commits",
                        "snapshots",
                        "files",
                        "partitions",
                        "buckets",
                        "consumers",
                        "tags",
                        "ro",
                        "audit_log")) {
            assertThat(query("SELECT * FROM c.db.`t$" + empty + "`")).as(empty).isEmpty();
        }
        assertThat(query("SELECT schema_id, partition_keys, primary_keys FROM c.db.`t$schemas`"))
                .containsExactly(row(0, "[\"dt\"]", "[\"id\",\"dt\"]"));
        assertThat(query("SELECT * FROM c.db.`t$options`")).containsExactly(row("bucket", "1"));
    }

    @Test
    void systemTablesAreReadOnlyAndKnownByName() {
        assertThatThrownBy(() -> query("SELECT * FROM c.db.`t$history`"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Table db.t has no system table 'history'; its"
                                                        + " system tables are [commits, snapshots,"
                                                        + " files, schemas, options, partitions,"
                                                        + " buckets, consumers, tags, ro,"
                                                        + " audit_log]"));
        assertThatThrownBy(() -> query("SELECT * FROM c.db.`u$commits`"))
                .hasMessageContaining("Object 'u$commits' not found");
        assertThatThrownBy(
                        () ->
                                env.executeSql(
                                        "INSERT INTO c.db.`t$files` VALUES ('p', '', 0, 'LOG', 1,"
                                                + " 1, 1, 0)"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Cannot write to c.db.t$files: system tables are"
                                                        + " read-only"));
        assertThat(query("SHOW TABLES IN c.db")).containsExactly(row("t"));
    }

    @Test
    void badOptionsNameTheSystemTableAndWhatIsAllowed() {
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM c.db.`t$files` /*+ OPTIONS('scan.mode' = 'latest') */"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Unsupported option 'scan.mode' for system table"
                                                        + " db.t$files: it takes only"
                                                        + " [scan.snapshot-id, scan.tag-name,"
                                                        + " scan.timestamp], one of them"));
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM c.db.`t$schemas` /*+"
                                                + " OPTIONS('scan.snapshot-id' = '1') */"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Unsupported option 'scan.snapshot-id' for system"
                                                        + " table db.t$schemas: it takes no"
                                                        + " options"));
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM c.db.`t$files` /*+"
                                                + " OPTIONS('scan.snapshot-id' = 'x') */"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Invalid value 'x' for option 'scan.snapshot-id' of"
                                                        + " system table db.t$files: expected a"
                                                        + " commit id >= 0"));
        assertThatThrownBy(
                        () ->
                                query(
                                        "SELECT * FROM c.db.`t$files` /*+"
                                                + " OPTIONS('scan.tag-name' = 'nope') */"))
                .satisfies(
                        e ->
                                assertThat(WeirCatalogTest.messages(e))
                                        .contains(
                                                "Cannot find tag 'nope' of table "
                                                        + table.location()
                                                        + "; its tags are []"));
    }
}
