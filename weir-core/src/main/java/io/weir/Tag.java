package io.weir;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A named snapshot: snapshot expiry never deletes the files it needs, and time travel to it keeps
 * working after its commit expired. Stored as {@code _weir/tags/<name>.json} with the snapshot's
 * full state (docs/format.md §6.8); see {@link Tags}.
 *
 * @param name letters, digits, {@code .}, {@code _} and {@code -}, 1 to 200 characters, not
 *     starting with {@code .} (it names the tag file)
 * @param commitId the commit whose snapshot the tag names
 * @param createdMillis when the tag was created (epoch millis)
 */
public record Tag(String name, long commitId, long createdMillis) {
    private static final Pattern VALID_NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    public Tag {
        checkName(name);
        if (commitId < 1) {
            throw new IllegalArgumentException(
                    "Invalid commit id " + commitId + " of tag " + name + ": must be >= 1");
        }
    }

    /**
     * Checks that a name can name a tag file.
     *
     * @throws IllegalArgumentException if it cannot
     */
    public static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (!VALID_NAME.matcher(name).matches() || name.startsWith(".")) {
            throw new IllegalArgumentException(
                    "Invalid tag name '"
                            + name
                            + "': use 1 to 200 letters, digits, '.', '_' or '-', not starting"
                            + " with '.'");
        }
    }
}
