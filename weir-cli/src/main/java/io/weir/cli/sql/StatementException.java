package io.weir.cli.sql;

/** A statement of a script failed; the cause says why. */
public final class StatementException extends RuntimeException {
    private final transient SqlStatement statement;

    public StatementException(SqlStatement statement, String message, Throwable cause) {
        super(message, cause);
        this.statement = statement;
    }

    public SqlStatement statement() {
        return statement;
    }
}
