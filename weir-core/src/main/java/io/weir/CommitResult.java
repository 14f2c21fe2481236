package io.weir;

/**
 * What committing a {@link TableUpdate} did.
 *
 * @param commit the commit that holds the update: the new one, or, if {@code alreadyCommitted}, the
 *     earlier commit of the writer's latest checkpoint (which covers this one). If that commit has
 *     expired, a stand-in with its id, the writer id and checkpoint id, no files, timestamp 0 and
 *     the property {@code expired=true}
 * @param alreadyCommitted true if the writer's checkpoint had landed before, so nothing was done
 */
public record CommitResult(Commit commit, boolean alreadyCommitted) {}
