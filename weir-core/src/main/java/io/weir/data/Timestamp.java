package io.weir.data;

import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * A TIMESTAMP or TIMESTAMP_LTZ value: milliseconds since the epoch plus the nanoseconds within that
 * millisecond (0..999,999), as Flink's {@code TimestampData}. For TIMESTAMP (without time zone) the
 * epoch is taken in UTC, i.e. the value is the wall-clock reading.
 */
public record Timestamp(long millis, int nanoOfMillisecond)
        implements Comparable<Timestamp>, Serializable {
    public Timestamp {
        if (nanoOfMillisecond < 0 || nanoOfMillisecond > 999_999) {
            throw new IllegalArgumentException(
                    "Invalid nanoOfMillisecond " + nanoOfMillisecond + ": must be in [0, 999999]");
        }
    }

    public static Timestamp ofMillis(long millis) {
        return new Timestamp(millis, 0);
    }

    public static Timestamp of(LocalDateTime dateTime) {
        return of(dateTime.toInstant(ZoneOffset.UTC));
    }

    public static Timestamp of(Instant instant) {
        long millis = instant.getEpochSecond() * 1000 + instant.getNano() / 1_000_000;
        return new Timestamp(millis, instant.getNano() % 1_000_000);
    }

    public Instant toInstant() {
        return Instant.ofEpochMilli(millis).plusNanos(nanoOfMillisecond);
    }

    public LocalDateTime toLocalDateTime() {
        return LocalDateTime.ofInstant(toInstant(), ZoneOffset.UTC);
    }

    @Override
    public int compareTo(Timestamp o) {
        int c = Long.compare(millis, o.millis);
        return c != 0 ? c : Integer.compare(nanoOfMillisecond, o.nanoOfMillisecond);
    }

    @Override
    public String toString() {
        return toLocalDateTime().toString();
    }
}
