package io.weir.cli.sql;

/**
 * One statement of a script.
 *
 * @param number the statement's position among the script's non-empty statements, from 1
 * @param line the script line (from 1) on which the statement's first token stands
 * @param text the statement without its terminating {@code ;}, from its first token on
 */
public record SqlStatement(int number, int line, String text) {

    /** The statement's first line, for messages. */
    public String firstLine() {
        int end = text.indexOf('\n');
        String first = (end < 0 ? text : text.substring(0, end)).strip();
        return end < 0 ? first : first + " ...";
    }

    /** "statement 3 (line 7)". */
    public String describe() {
        return "statement " + number + " (line " + line + ")";
    }
}
