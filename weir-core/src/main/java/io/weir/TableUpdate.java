package io.weir;

/**
 * An operation that changes a table by one atomic commit. {@link #commit()} reads the latest state,
 * checks the operation against it, and creates the next commit; if another writer got there first
 * it retries against the new state (up to {@code commit.max-retries}).
 *
 * @param <R> the result of a commit
 */
public interface TableUpdate<R> {
    /**
     * Commits the operation.
     *
     * @throws io.weir.exceptions.CommitConflictException if it conflicts with a concurrent commit
     *     (nothing was committed)
     * @throws io.weir.exceptions.CommitStateUnknownException if it is unknown whether the commit
     *     landed; files must not be cleaned up
     * @throws io.weir.exceptions.ValidationException if the operation is invalid (nothing was
     *     committed)
     */
    R commit();
}
