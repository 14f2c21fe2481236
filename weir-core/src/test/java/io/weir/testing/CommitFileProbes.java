package io.weir.testing;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the existence probes of commit files ({@code _weir/commits/}), which every refresh of a
 * table's head makes: on an object store each is a request.
 */
public final class CommitFileProbes extends ForwardingFileIO {
    private final AtomicInteger probes = new AtomicInteger();

    @Override
    public boolean exists(String path) throws IOException {
        if (path.contains("/_weir/commits/")) {
            probes.incrementAndGet();
        }
        return super.exists(path);
    }

    /** The probes so far. */
    public int probes() {
        return probes.get();
    }
}
