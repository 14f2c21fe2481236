package io.weir.commit;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test sets. */
final class TestClock extends Clock {
    private final AtomicLong millis;

    TestClock(long millis) {
        this.millis = new AtomicLong(millis);
    }

    void set(long value) {
        millis.set(value);
    }

    void advance(long delta) {
        millis.addAndGet(delta);
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
