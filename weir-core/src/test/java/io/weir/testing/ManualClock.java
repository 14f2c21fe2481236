package io.weir.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves: simulated hours pass in no time. Thread-safe. */
public final class ManualClock extends Clock {
    private final AtomicLong millis;

    public ManualClock(long millis) {
        this.millis = new AtomicLong(millis);
    }

    public void advance(Duration d) {
        millis.addAndGet(d.toMillis());
    }

    public void advance(long deltaMillis) {
        millis.addAndGet(deltaMillis);
    }

    public void set(long value) {
        millis.set(value);
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
