package io.weir.exceptions;

/**
 * A commit failed in a way that leaves its outcome unknown (e.g. an I/O error while publishing the
 * commit file). The caller must not delete the commit's files; reloading the table tells.
 */
public class CommitStateUnknownException extends WeirException {
    public CommitStateUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
