package io.weir.aws;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Requests sent by one {@link S3FileIO} since it was made, by kind, retries included. Subtract two
 * snapshots ({@link #minus}) to learn what an operation cost, e.g. requests per commit.
 */
public final class S3RequestCounts {

    /** Kinds of requests. DELETE counts single and batch deletes alike (one request each). */
    public enum Kind {
        GET,
        HEAD,
        PUT,
        LIST,
        DELETE,
        CREATE_MULTIPART,
        UPLOAD_PART,
        COMPLETE_MULTIPART,
        ABORT_MULTIPART,
        /** Anything else: HeadBucket while diagnosing an error, ListMultipartUploads, ... */
        OTHER
    }

    private final EnumMap<Kind, Long> counts;

    S3RequestCounts(EnumMap<Kind, Long> counts) {
        this.counts = counts;
    }

    public long get(Kind kind) {
        return counts.getOrDefault(kind, 0L);
    }

    public long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The requests counted here but not in {@code earlier}. */
    public S3RequestCounts minus(S3RequestCounts earlier) {
        EnumMap<Kind, Long> out = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            out.put(kind, get(kind) - earlier.get(kind));
        }
        return new S3RequestCounts(out);
    }

    /** Every kind with its count, in declaration order. */
    public Map<Kind, Long> asMap() {
        return Collections.unmodifiableMap(counts);
    }

    /** The non-zero counts, e.g. {@code {GET=3, PUT=1} total=4}. */
    @Override
    public String toString() {
        EnumMap<Kind, Long> shown = new EnumMap<>(Kind.class);
        counts.forEach(
                (k, v) -> {
                    if (v != 0) {
                        shown.put(k, v);
                    }
                });
        return shown + " total=" + total();
    }
}
