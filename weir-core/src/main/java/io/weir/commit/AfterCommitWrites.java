package io.weir.commit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * Step 8 of the commit protocol (docs/format.md §6.5): the checkpoint and the LATEST hint after a
 * commit landed. Both only save later loads work, so a failure is logged and never undoes or fails
 * the commit.
 */
final class AfterCommitWrites {
    private static final Logger LOG = LoggerFactory.getLogger(AfterCommitWrites.class);

    private AfterCommitWrites() {}

    static void write(MetadataFiles files, TableState next, int checkpointInterval) {
        long id = next.commitId();
        if (id % checkpointInterval == 0) {
            try {
                files.writeCheckpoint(next);
            } catch (IOException | RuntimeException e) {
                LOG.warn(
                        "Cannot write checkpoint {}; loading will replay more commits",
                        files.paths().checkpoint(id),
                        e);
            }
        }
        // Written only now, so that the hint never names a commit that was not made.
        try {
            files.writeHint(id);
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "Cannot update commit hint {}; readers will probe further",
                    files.paths().latestHint(),
                    e);
        }
    }
}
