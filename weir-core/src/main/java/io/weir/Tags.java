package io.weir;

import java.util.List;

/**
 * The tags of a table: named snapshots that outlive snapshot expiry ({@code table.tags()}). A tag
 * file holds its snapshot's full state, so time travel to a tagged snapshot ({@link
 * Table#snapshot(long)}, {@code scan.tag-name} in Flink) works after its commit expired; expiry and
 * orphan removal keep every file a tag needs. See docs/table-services.md, "Tags".
 *
 * <p>Protocol with expiry (as for {@link SnapshotLeases}): {@link #create} writes the tag, then
 * checks that its snapshot is still retained; expiry records the new earliest retained commit, then
 * reads the tags. So either the creator learns that the snapshot expired, or the expiry sees the
 * tag and keeps its files.
 */
public interface Tags {

    /**
     * Tags snapshot {@code commitId}.
     *
     * @throws io.weir.exceptions.ValidationException if the name is invalid or taken, or the commit
     *     does not exist
     * @throws io.weir.exceptions.SnapshotExpiredException if the snapshot has expired
     */
    Tag create(String name, long commitId);

    /**
     * Deletes a tag, and the data files that only it needed: those of its snapshot that no retained
     * snapshot and no other tag needs (files that only an expired snapshot needed).
     *
     * @return the paths of the data files deleted
     * @throws io.weir.exceptions.ValidationException if there is no such tag
     */
    List<String> delete(String name);

    /**
     * One tag.
     *
     * @throws io.weir.exceptions.ValidationException if there is no such tag (the message names the
     *     table's tags)
     */
    Tag get(String name);

    /** The snapshot a tag names, read from the tag. */
    Snapshot snapshot(String name);

    /** Every tag, by name. */
    List<Tag> list();
}
