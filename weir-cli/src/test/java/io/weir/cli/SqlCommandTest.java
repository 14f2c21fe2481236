package io.weir.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs {@code weir sql} in this JVM on Flink's built-in connectors. */
class SqlCommandTest {
    @TempDir Path dir;

    record Run(int exitCode, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                WeirCommand.commandLine()
                        .setOut(new PrintWriter(out, true))
                        .setErr(new PrintWriter(err, true))
                        .execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static final String PEOPLE =
            "CREATE TEMPORARY VIEW people AS SELECT * FROM (VALUES (1, 'ann'), (2, 'bob'),"
                    + " (3, CAST(NULL AS STRING)), (4, '')) AS t(id, name);\n";

    private static final String GEN =
            "CREATE TABLE gen (id BIGINT, name STRING) WITH ('connector' = 'datagen',"
                    + " 'number-of-rows' = '5', 'fields.id.kind' = 'sequence',"
                    + " 'fields.id.start' = '1', 'fields.id.end' = '5',"
                    + " 'fields.name.length' = '3');\n";

    @Test
    void scriptSwitchesFromStreamingToBatchAndKeepsTablesViewsAndCatalogs() throws IOException {
        Path script = dir.resolve("script.sql");
        Files.writeString(
                script,
                "-- streaming first (the default); one task, so rows print in VALUES order\n"
                        + "SET 'parallelism.default' = '1';\n"
                        + "CREATE CATALOG cat WITH ('type' = 'generic_in_memory');\n"
                        + "CREATE DATABASE cat.db;\n"
                        + GEN
                        + "CREATE TABLE bh (id BIGINT, name STRING) WITH ('connector' = 'blackhole');\n"
                        + PEOPLE
                        + "INSERT INTO bh SELECT * FROM gen;\n"
                        + "EXECUTE STATEMENT SET BEGIN\n"
                        + "  INSERT INTO bh SELECT * FROM gen;\n"
                        + "  INSERT INTO bh SELECT CAST(id AS BIGINT), name FROM people;\n"
                        + "END;\n"
                        + "SELECT id, name FROM people WHERE id <> 2;\n"
                        + "SELECT COUNT(*) AS n FROM people;\n"
                        + "SET 'execution.runtime-mode' = 'batch';\n"
                        + "CREATE TABLE cat.db.saved (id INT, name STRING) WITH ("
                        + " 'connector' = 'filesystem', 'format' = 'csv', 'path' = '"
                        + dir.resolve("saved").toUri()
                        + "');\n"
                        + "INSERT INTO cat.db.saved SELECT id, name FROM people WHERE name <> '';\n"
                        + "-- ORDER BY a non-time column: batch only\n"
                        + "SELECT * FROM cat.db.saved ORDER BY id DESC;\n"
                        + "SELECT COUNT(*) AS n, MAX(id) AS m FROM gen;\n"
                        + "USE cat.db;\n"
                        + "SHOW TABLES;\n");

        Run run = run("sql", "-f", script.toString(), "--format", "csv");

        assertThat(run.exitCode()).as(run.err()).isZero();
        // The planner makes a VALUES whose rows are not all literals a union of one-row sources,
        // and in streaming mode a union's inputs interleave in any order: the first result's rows
        // are compared as a set (the counts after it do not depend on the order).
        String out = run.out();
        int firstEnd = out.indexOf("\n\n") + 1;
        assertThat(out.substring(0, firstEnd).lines()).first().isEqualTo("op,id,name");
        assertThat(out.substring(0, firstEnd).lines().skip(1))
                .containsExactlyInAnyOrder("+I,1,ann", "+I,3,", "+I,4,\"\"");
        assertThat(out.substring(firstEnd))
                .isEqualTo(
                        "\n"
                                + "op,n\n"
                                + "+I,1\n"
                                + "-U,1\n"
                                + "+U,2\n"
                                + "-U,2\n"
                                + "+U,3\n"
                                + "-U,3\n"
                                + "+U,4\n"
                                + "\n"
                                + "id,name\n"
                                + "2,bob\n"
                                + "1,ann\n"
                                + "\n"
                                + "n,m\n"
                                + "5,5\n"
                                + "\n"
                                + "table name\n"
                                + "saved\n");
        assertThat(run.err())
                .contains("[INFO] Execute statement succeeded.")
                .contains("[INFO] Complete execution of the SQL update statement (job ")
                .doesNotContain("ERROR");
    }

    @Test
    void weirCatalogFromSqlSurvivesARuntimeModeSwitch() {
        Path warehouse = dir.resolve("lake");
        Run run =
                run(
                        "sql",
                        "--format",
                        "csv",
                        "-e",
                        "CREATE CATALOG lake WITH ('type' = 'weir', 'warehouse' = '"
                                + warehouse
                                + "');\n"
                                + "USE CATALOG lake;\n"
                                + "CREATE TABLE orders (order_id BIGINT, status STRING,"
                                + " PRIMARY KEY (order_id) NOT ENFORCED) WITH ('bucket' = '2');\n"
                                + "INSERT INTO orders VALUES (1, 'NEW'), (2, 'PAID'), (1,"
                                + " 'SHIPPED');\n"
                                + "SET 'execution.runtime-mode' = 'batch';\n"
                                + "SHOW TABLES;\n"
                                + "INSERT INTO orders VALUES (3, 'NEW');\n"
                                + "SELECT * FROM orders ORDER BY order_id;\n");

        assertThat(run.exitCode()).as(run.err()).isZero();
        // The streaming insert committed at its end, the batch insert after it; 1 was upserted.
        assertThat(run.out())
                .isEqualTo(
                        "table name\norders\n\n" + "order_id,status\n1,SHIPPED\n2,PAID\n3,NEW\n");
        assertThat(warehouse.resolve("default.db").resolve("orders").resolve("_weir"))
                .isDirectory();
    }

    @Test
    void aCorruptFileIsReportedFirstNamingTheFile() throws IOException {
        Path warehouse = dir.resolve("lake");
        String catalog =
                "CREATE CATALOG lake WITH ('type' = 'weir', 'warehouse' = '"
                        + warehouse
                        + "');\nUSE CATALOG lake;\nSET 'execution.runtime-mode' = 'batch';\n";
        Run write =
                run(
                        "sql",
                        "-e",
                        catalog
                                + "CREATE TABLE t (id BIGINT, s STRING, PRIMARY KEY (id) NOT"
                                + " ENFORCED) WITH ('bucket' = '1', 'log.codec' = 'none');\n"
                                + "INSERT INTO t /*+ OPTIONS('write.mode' = 'upsert') */ VALUES"
                                + " (1, 'one'), (2, 'two');\n");
        assertThat(write.exitCode()).as(write.err()).isZero();
        Path log;
        try (var files = Files.walk(warehouse)) {
            log = files.filter(p -> p.toString().endsWith(".wlog")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(log);
        bytes[bytes.length / 2] ^= 0x5a; // inside the block, so its checksum no longer matches
        Files.write(log, bytes);

        Run read = run("sql", "--format", "csv", "-e", catalog + "SELECT * FROM t;\n");

        assertThat(read.exitCode()).isEqualTo(SqlCommand.FAILED);
        List<String> err = read.err().lines().toList();
        int failed = err.indexOf("[ERROR] Statement 4 (line 4) failed: SELECT * FROM t");
        assertThat(failed).as(read.err()).isNotNegative();
        assertThat(err.get(failed + 1))
                .startsWith("  io.weir.exceptions.CorruptFileException: ")
                .contains(log.getFileName().toString());
        assertThat(read.err()).doesNotContain("\tat ");
    }

    @Test
    void tablesShowTheRowKindInStreamingModeAndNulls() {
        Run run = run("sql", "-e", PEOPLE + "SELECT * FROM people WHERE id > 2");

        assertThat(run.exitCode()).as(run.err()).isZero();
        // A streaming query has no row order (the planner may read VALUES as a union).
        String border = "+----+-------------+--------------------------------+";
        assertThat(run.out().lines().toList())
                .hasSize(7)
                .startsWith(border, "| op |          id |                           name |", border)
                .endsWith(border, "2 rows in set")
                .contains(
                        "| +I |           3 |                         <NULL> |",
                        "| +I |           4 |                                |");
    }

    @Test
    void batchOnlyStatementFailsInStreamingMode() {
        Run run = run("sql", "-e", PEOPLE + "SELECT * FROM people ORDER BY name");

        assertThat(run.exitCode()).isEqualTo(SqlCommand.FAILED);
        assertThat(run.err())
                .contains("[ERROR] Statement 2 (line 2) failed: SELECT * FROM people ORDER BY name")
                .contains("Sort on a non-time-attribute field is not supported.");
    }

    @Test
    void failingJobStopsTheScriptWithItsRootCause() {
        Run run =
                run(
                        "sql",
                        "--format=csv",
                        "-e",
                        GEN
                                + "CREATE TABLE bh (x BIGINT) WITH ('connector' = 'blackhole');\n"
                                + "SELECT 'before';\n"
                                + "INSERT INTO bh\n  SELECT 10 / (id - id) FROM gen;\n"
                                + "SELECT 'after';");

        assertThat(run.exitCode()).isEqualTo(SqlCommand.FAILED);
        assertThat(run.out()).isEqualTo("op,EXPR$0\n+I,before\n");
        assertThat(run.err())
                .contains("[ERROR] Statement 4 (line 4) failed: INSERT INTO bh ...\n")
                .contains(
                        "failed: INSERT INTO bh ...\n"
                                + "  java.lang.ArithmeticException: / by zero\n"
                                + "  In: Job execution failed.\n")
                .doesNotContain("\tat ");
    }

    @Test
    void parseErrorNamesTheStatementAndItsScriptLine() throws IOException {
        Path script = dir.resolve("broken.sql");
        Files.writeString(
                script,
                "SELECT 1;\n-- a comment\n\nSELEC 2;\nSELECT 3;\n",
                java.nio.charset.StandardCharsets.UTF_8);

        Run run = run("sql", "-f", script.toString());

        assertThat(run.exitCode()).isEqualTo(SqlCommand.FAILED);
        assertThat(run.err())
                .contains("[ERROR] Statement 2 (line 4) failed: SELEC 2\n")
                .contains("Non-query expression encountered in illegal context")
                .contains("(--verbose prints the stack trace)")
                .doesNotContain("\tat ");
        assertThat(run.out()).contains("| +I |           1 |").doesNotContain("3 |");

        Run verbose = run("sql", "--verbose", "-f", script.toString());
        assertThat(verbose.err()).contains("\tat org.apache.flink");
    }

    @Test
    void setListsTheConfigurationAndResetRestoresIt() {
        Run run =
                run(
                        "sql",
                        "--format",
                        "csv",
                        "-Dparallelism.default=1",
                        "-e",
                        "SET 'table.display.max-column-width' = '7';"
                                + "SET 'execution.runtime-mode' = 'batch';"
                                + " SET; RESET 'table.display.max-column-width';"
                                + " RESET 'execution.runtime-mode'; SET;"
                                + " SET 'parallelism.default' = '3'; RESET; SET");

        assertThat(run.exitCode()).as(run.err()).isZero();
        String[] blocks = run.out().split("\n\n");
        assertThat(blocks).hasSize(3);
        assertThat(blocks[0])
                .startsWith("key,value\n")
                .contains("\nexecution.runtime-mode,batch\n")
                .contains("\ntable.display.max-column-width,7")
                .contains("\nparallelism.default,1\n");
        assertThat(blocks[1])
                .contains("\nexecution.runtime-mode,streaming\n")
                .doesNotContain("table.display.max-column-width");
        assertThat(blocks[2]).isEqualTo(blocks[1] + "\n");
    }

    @Test
    void rejectsAnUnknownRuntimeMode() {
        Run run = run("sql", "-e", "SET 'execution.runtime-mode' = 'automatic'");

        assertThat(run.exitCode()).isEqualTo(SqlCommand.FAILED);
        assertThat(run.err())
                .contains(
                        "Unsupported value 'automatic' for 'execution.runtime-mode': use"
                                + " 'streaming' or 'batch'");
    }

    @Test
    void usageErrors() {
        assertThat(run("sql", "-e", "SELECT 1", "-f", "x.sql").exitCode()).isEqualTo(2);
        assertThat(run("sql", "-e", "SELECT 1", "--format", "xml").exitCode()).isEqualTo(2);
        Run missing = run("sql", "-f", dir.resolve("nope.sql").toString());
        assertThat(missing.exitCode()).isEqualTo(SqlCommand.FAILED);
        assertThat(missing.err()).contains("No such file: ");
        Run unterminated = run("sql", "-e", "SELECT 1; SELECT 'x");
        assertThat(unterminated.exitCode()).isEqualTo(SqlCommand.FAILED);
        assertThat(unterminated.err())
                .contains("Cannot read the script: Unterminated string literal starting at line 1");
    }
}
