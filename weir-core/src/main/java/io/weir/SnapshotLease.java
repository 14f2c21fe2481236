package io.weir;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A reader's claim on a snapshot: while the lease is live, snapshot expiry keeps snapshot {@code
 * commitId} and every later one readable. Stored as {@code _weir/consumers/<consumerId>.json}; see
 * {@link SnapshotLeases} and docs/table-services.md.
 *
 * @param consumerId who holds the lease: letters, digits, {@code .}, {@code _} and {@code -}, 1 to
 *     200 characters (it names the lease file)
 * @param commitId the oldest snapshot the reader still needs
 * @param expiresMillis when the lease ends unless renewed (epoch millis)
 */
public record SnapshotLease(String consumerId, long commitId, long expiresMillis) {
    private static final Pattern VALID_ID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    public SnapshotLease {
        checkConsumerId(consumerId);
        if (commitId < 0) {
            throw new IllegalArgumentException(
                    "Invalid commit id " + commitId + " of lease " + consumerId + ": must be >= 0");
        }
    }

    /**
     * Checks that a consumer id can name a lease file.
     *
     * @throws IllegalArgumentException if it cannot
     */
    public static void checkConsumerId(String consumerId) {
        checkLeaseId("consumer id", consumerId);
    }

    /**
     * Checks that an id can name a lease file (a reader's or a {@link WriterLease writer's}).
     *
     * @param what what the id is, for the message ("consumer id", "writer id")
     * @throws IllegalArgumentException if it cannot
     */
    static void checkLeaseId(String what, String id) {
        Objects.requireNonNull(id, what);
        if (!VALID_ID.matcher(id).matches() || id.startsWith(".")) {
            throw new IllegalArgumentException(
                    "Invalid "
                            + what
                            + " '"
                            + id
                            + "': use 1 to 200 letters, digits, '.', '_' or '-', not starting"
                            + " with '.'");
        }
    }

    /** Whether the lease still protects its snapshots at {@code nowMillis}. */
    public boolean isLive(long nowMillis) {
        return nowMillis < expiresMillis;
    }
}
