package io.weir.cli.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a SQL script into statements at each {@code ;} that stands outside string literals ({@code
 * '...'}, with {@code ''} as an escaped quote), quoted identifiers ({@code `...`}, with {@code ``}
 * as an escaped backquote), line comments ({@code -- ...}) and block comments ({@code /* ... *\/}).
 * Statements that hold nothing but whitespace and comments are dropped; the last statement needs no
 * {@code ;}.
 *
 * <p>{@code EXECUTE STATEMENT SET BEGIN ... END;} (and {@code STATEMENT SET BEGIN ... END;}) is one
 * statement: inside it, a {@code ;} ends the statement only when the word right before it is {@code
 * END}.
 */
public final class StatementSplitter {
    private final String script;
    private final List<SqlStatement> statements = new ArrayList<>();

    private int pos;
    private int line = 1;

    /** Where the current statement's first token starts (-1: none yet), and its line. */
    private int start = -1;

    private int startLine;

    /** The last significant token when it was a word (upper case), else null. */
    private String lastWord;

    /** The current statement's first words, up to four, to recognize a statement set block. */
    private final List<String> leadingWords = new ArrayList<>();

    private StatementSplitter(String script) {
        this.script = script;
    }

    /**
     * Splits a script.
     *
     * @throws IllegalArgumentException if a string literal, quoted identifier or block comment is
     *     not closed; the message names the line where it starts
     */
    public static List<SqlStatement> split(String script) {
        StatementSplitter splitter = new StatementSplitter(script);
        splitter.run();
        return splitter.statements;
    }

    /**
     * The statements that a buffer of typed lines completes, each ended by its {@code ;}, and the
     * rest of the buffer (a statement not ended yet, from its first token), for the interactive
     * mode. A string literal, quoted identifier or block comment not closed yet leaves every
     * statement incomplete.
     */
    public static Prefix complete(String buffer) {
        StatementSplitter splitter = new StatementSplitter(buffer);
        try {
            splitter.scan();
        } catch (IllegalArgumentException e) {
            return new Prefix(List.of(), buffer, 1);
        }
        if (splitter.start < 0) {
            return new Prefix(splitter.statements, "", 0);
        }
        return new Prefix(
                splitter.statements, buffer.substring(splitter.start), splitter.startLine);
    }

    /**
     * @param complete the statements ended by a {@code ;}
     * @param rest the text of the statement being typed, or empty
     * @param restLine the buffer's line on which {@code rest} starts (from 1), or 0
     */
    public record Prefix(List<SqlStatement> complete, String rest, int restLine) {}

    private void run() {
        scan();
        endStatement(script.length());
    }

    private void scan() {
        while (pos < script.length()) {
            char c = script.charAt(pos);
            if (c == '\'' || c == '`') {
                markStart();
                skipQuoted(c);
                lastWord = null;
            } else if (c == '-' && peek(1) == '-') {
                skipLineComment();
            } else if (c == '/' && peek(1) == '*') {
                skipBlockComment();
            } else if (c == ';') {
                if (!inStatementSetBlock() || "END".equals(lastWord)) {
                    endStatement(pos);
                }
                advance();
            } else if (isWordChar(c)) {
                markStart();
                readWord();
            } else {
                if (!Character.isWhitespace(c)) {
                    markStart();
                    lastWord = null;
                }
                advance();
            }
        }
    }

    private void markStart() {
        if (start < 0) {
            start = pos;
            startLine = line;
        }
    }

    private void endStatement(int end) {
        if (start >= 0) {
            String text = script.substring(start, end).stripTrailing();
            statements.add(new SqlStatement(statements.size() + 1, startLine, text));
        }
        start = -1;
        lastWord = null;
        leadingWords.clear();
    }

    private boolean inStatementSetBlock() {
        List<String> w = leadingWords;
        return w.size() >= 3
                && (w.subList(0, 3).equals(List.of("STATEMENT", "SET", "BEGIN"))
                        || (w.size() == 4
                                && w.equals(List.of("EXECUTE", "STATEMENT", "SET", "BEGIN"))));
    }

    private void readWord() {
        int from = pos;
        while (pos < script.length() && isWordChar(script.charAt(pos))) {
            pos++;
        }
        lastWord = script.substring(from, pos).toUpperCase(Locale.ROOT);
        if (leadingWords.size() < 4) {
            leadingWords.add(lastWord);
        }
    }

    private void skipQuoted(char quote) {
        int openLine = line;
        advance();
        while (pos < script.length()) {
            char c = script.charAt(pos);
            advance();
            if (c == quote) {
                if (peek(0) == quote) {
                    advance(); // an escaped quote: '' or ``
                } else {
                    return;
                }
            }
        }
        throw new IllegalArgumentException(
                (quote == '\'' ? "Unterminated string literal" : "Unterminated quoted identifier")
                        + " starting at line "
                        + openLine);
    }

    private void skipLineComment() {
        while (pos < script.length() && script.charAt(pos) != '\n') {
            pos++;
        }
    }

    private void skipBlockComment() {
        int openLine = line;
        advance();
        advance();
        while (pos < script.length()) {
            if (script.charAt(pos) == '*' && peek(1) == '/') {
                advance();
                advance();
                return;
            }
            advance();
        }
        throw new IllegalArgumentException(
                "Unterminated block comment starting at line " + openLine);
    }

    private void advance() {
        if (script.charAt(pos) == '\n') {
            line++;
        }
        pos++;
    }

    private char peek(int ahead) {
        int i = pos + ahead;
        return i < script.length() ? script.charAt(i) : '\0';
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
