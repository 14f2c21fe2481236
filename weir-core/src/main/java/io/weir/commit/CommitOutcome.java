package io.weir.commit;

import io.weir.Commit;

/**
 * The outcome of {@link CommitLog#commit(CommitRequest)}.
 *
 * @param commit the commit that holds the request: the new one, or, if {@code alreadyCommitted},
 *     the earlier commit of the writer's latest checkpoint (which covers the requested one). If
 *     that commit has expired, a stand-in with its id, the writer id and checkpoint id, no files,
 *     timestamp 0 and the property {@code expired=true}
 * @param state the table state right after the new commit, or the latest state if {@code
 *     alreadyCommitted}
 * @param alreadyCommitted true if the writer's checkpoint had landed before, so nothing was done
 */
public record CommitOutcome(Commit commit, TableState state, boolean alreadyCommitted) {}
