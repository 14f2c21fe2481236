package io.weir.testing;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test sets. */
public final class TestClock extends Clock {
    private final AtomicLong millis;

    public TestClock(long millis) {
        this.millis = new AtomicLong(millis);
    }

    public void set(long value) {
        millis.set(value);
    }

    public void advance(long delta) {
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
