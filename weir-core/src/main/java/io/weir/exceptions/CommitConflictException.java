package io.weir.exceptions;

/**
 * A commit lost a race that retrying cannot win (or ran out of retries): for example a compaction
 * whose input files a concurrent commit already replaced. Nothing was committed.
 */
public class CommitConflictException extends WeirException {
    public CommitConflictException(String message) {
        super(message);
    }
}
