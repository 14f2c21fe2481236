package io.weir.cli.sql;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatementSplitterTest {

    private static List<String> texts(String script) {
        return StatementSplitter.split(script).stream().map(SqlStatement::text).toList();
    }

    @Test
    void splitsAtSemicolonsAndKeepsATrailingStatementWithoutOne() {
        assertThat(texts("SELECT 1; SELECT 2;\nSELECT 3"))
                .containsExactly("SELECT 1", "SELECT 2", "SELECT 3");
    }

    @Test
    void dropsEmptyStatementsAndCommentOnlyStatements() {
        assertThat(texts(";; \n ; -- nothing;\n /* nor; this */ ; SELECT 1;;"))
                .containsExactly("SELECT 1");
        assertThat(texts("")).isEmpty();
        assertThat(texts("  -- only a comment")).isEmpty();
    }

    @Test
    void semicolonsInStringLiteralsWithEscapedQuotes() {
        assertThat(texts("SELECT 'a;b', 'it''s; fine' AS x; SELECT ''';'"))
                .containsExactly("SELECT 'a;b', 'it''s; fine' AS x", "SELECT ''';'");
    }

    @Test
    void semicolonsInBackquotedIdentifiersWithEscapedBackquotes() {
        assertThat(texts("SELECT 1 AS `a;b`, 2 AS `x``;y`; SELECT 2"))
                .containsExactly("SELECT 1 AS `a;b`, 2 AS `x``;y`", "SELECT 2");
    }

    @Test
    void semicolonsInComments() {
        assertThat(texts("SELECT 1 -- not here; nor here\n, 2; SELECT /* a; b */ 3"))
                .containsExactly("SELECT 1 -- not here; nor here\n, 2", "SELECT /* a; b */ 3");
    }

    @Test
    void commentMarkersInsideQuotesAreText() {
        assertThat(texts("SELECT '--;', '/*;' ; SELECT `--;`"))
                .containsExactly("SELECT '--;', '/*;'", "SELECT `--;`");
    }

    @Test
    void quotesInsideCommentsAreIgnored() {
        assertThat(texts("-- it's a comment; really\nSELECT 1; /* don't */ SELECT 2"))
                .containsExactly("SELECT 1", "SELECT 2");
    }

    @Test
    void numbersAndLinesPointAtTheFirstToken() {
        List<SqlStatement> statements =
                StatementSplitter.split(
                        "-- header\n\nCREATE TABLE t (\n  a INT\n);\n\n/* c */\n  SELECT\n  1;\n;SELECT 2");
        assertThat(statements)
                .containsExactly(
                        new SqlStatement(1, 3, "CREATE TABLE t (\n  a INT\n)"),
                        new SqlStatement(2, 8, "SELECT\n  1"),
                        new SqlStatement(3, 10, "SELECT 2"));
        assertThat(statements.get(0).firstLine()).isEqualTo("CREATE TABLE t ( ...");
        assertThat(statements.get(2).firstLine()).isEqualTo("SELECT 2");
        assertThat(statements.get(1).describe()).isEqualTo("statement 2 (line 8)");
    }

    @Test
    void linesCountInsideStringsAndComments() {
        List<SqlStatement> statements =
                StatementSplitter.split("SELECT 'a\nb';\n/* x\ny */ SELECT `c\nd`;\nSELECT 3");
        assertThat(statements).extracting(SqlStatement::line).containsExactly(1, 4, 6);
    }

    @Test
    void executeStatementSetBlockIsOneStatement() {
        String block =
                "EXECUTE STATEMENT SET\nBEGIN\n  INSERT INTO a SELECT 1;\n"
                        + "  INSERT INTO b SELECT 'end;';\nEND";
        assertThat(texts(block + ";\nSELECT 1")).containsExactly(block, "SELECT 1");
        assertThat(texts("statement set begin insert into a select 1; end; select 2"))
                .containsExactly("statement set begin insert into a select 1; end", "select 2");
    }

    @Test
    void interactiveStatementSetIsSeparateStatements() {
        assertThat(texts("BEGIN STATEMENT SET; INSERT INTO a SELECT 1; END;"))
                .containsExactly("BEGIN STATEMENT SET", "INSERT INTO a SELECT 1", "END");
    }

    @Test
    void unterminatedQuotesAndCommentsNameTheirLine() {
        assertThatThrownBy(() -> StatementSplitter.split("SELECT 1;\nSELECT 'abc;"))
                .hasMessage("Unterminated string literal starting at line 2");
        assertThatThrownBy(() -> StatementSplitter.split("SELECT `abc"))
                .hasMessage("Unterminated quoted identifier starting at line 1");
        assertThatThrownBy(() -> StatementSplitter.split("\n\nSELECT 1 /* abc"))
                .hasMessage("Unterminated block comment starting at line 3");
    }

    @Test
    void completeTellsTheStatementsATypedBufferEndsAndWhatIsStillBeingTyped() {
        StatementSplitter.Prefix typed = StatementSplitter.complete("SELECT 1; SELECT\n  2");
        assertThat(typed.complete()).extracting(SqlStatement::text).containsExactly("SELECT 1");
        assertThat(typed.rest()).isEqualTo("SELECT\n  2");
        assertThat(typed.restLine()).isEqualTo(1);

        StatementSplitter.Prefix done = StatementSplitter.complete("SELECT 1;\n-- later;\n");
        assertThat(done.complete()).extracting(SqlStatement::text).containsExactly("SELECT 1");
        assertThat(done.rest()).isEmpty();

        // An open literal or statement set waits for more lines.
        assertThat(StatementSplitter.complete("SELECT 1; SELECT 'a;\n").complete()).isEmpty();
        StatementSplitter.Prefix set =
                StatementSplitter.complete(
                        "x;\nEXECUTE STATEMENT SET BEGIN\nINSERT INTO t VALUES (1);\n");
        assertThat(set.complete()).extracting(SqlStatement::text).containsExactly("x");
        assertThat(set.rest()).startsWith("EXECUTE STATEMENT SET BEGIN");
        assertThat(set.restLine()).isEqualTo(2);
        assertThat(StatementSplitter.complete(set.rest() + "END;\n").complete()).hasSize(1);
    }
}
