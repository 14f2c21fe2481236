package io.weir.write;

import io.weir.DataFile;
import io.weir.PendingFilesLease;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.WriterLease;
import io.weir.data.BinaryRowWriter;
import io.weir.io.InputFile;
import io.weir.testing.ForwardingFileIO;
import io.weir.testing.ManualClock;
import io.weir.types.DataTypes;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a writer's hand-overs cost the table's storage (on an object store every probe, read and
 * write is a request): nothing until the lease is due, then one refresh and one lease write; and
 * the lease still follows the commits, also of files compacted away since.
 */
class PendingFilesLeaseRefreshTest {
    private static final Duration TTL = Duration.ofMinutes(30);
    private static final Schema SCHEMA =
            Schema.builder()
                    .column("id", DataTypes.BIGINT())
                    .column("name", DataTypes.STRING())
                    .primaryKey("id")
                    .build();

    @TempDir Path dir;

    private final CountingIO io = new CountingIO();
    private final ManualClock clock = new ManualClock(System.currentTimeMillis());
    private Table table;
    private Table committer;
    private PendingFilesLease lease;
    private long nextKey;

    @BeforeEach
    void setUp() {
        String location = dir.resolve("t").toString();
        table = Tables.create(io, location, SCHEMA, Map.of("bucket", "2"));
        committer = Tables.load(io, location);
        lease = new PendingFilesLeaseImpl(table, "job-1.w-0", TTL, clock);
    }

    @Test
    void handOversCostNothingUntilTheLeaseIsDue() throws Exception {
        long start = clock.millis();
        assertThat(storedOldest()).isEqualTo(start);
        for (int i = 0; i < 5; i++) {
            List<DataFile> files = written();
            clock.advance(60_000);
            io.reset();
            lease.handedOn(files);
            assertThat(io.probes + io.commitReads + io.leaseWrites).as("hand-over %d", i).isZero();
            committer.newAppend().addFiles(files).commit();
        }
        assertThat(storedOldest()).isEqualTo(start);
        assertThat(lease.oldestFileMillis()).isEqualTo(start);

        // A third of the duration after the last renewal: this hand-over renews. Every earlier
        // one is committed, so the lease moves to the interval that starts now.
        clock.advance(TTL.toMillis() / 3 - 5 * 60_000);
        long behind = committer.currentSnapshot().id() - table.currentSnapshot().id();
        io.reset();
        lease.handedOn(List.of());
        assertThat(io.leaseWrites).isEqualTo(1);
        // No commit is searched for a hand-over. The refresh takes the state of the commits it
        // missed from the committer's log in this JVM (SharedStates): it reads no commit file.
        assertThat(behind).isPositive();
        assertThat(io.commitReads).isZero();
        assertThat(lease.oldestFileMillis()).isEqualTo(clock.millis());
        assertThat(storedOldest()).isEqualTo(clock.millis());

        lease.close();
        assertThat(table.writerLeases().list()).isEmpty();
    }

    @Test
    void aRenewalFindsTheCommitsOfFilesCompactedAwayAndStopsAtTheFirstNotCommitted()
            throws Exception {
        List<DataFile> first = written();
        clock.advance(1_000);
        long secondStart = clock.millis();
        lease.handedOn(first);
        List<DataFile> second = written();
        clock.advance(1_000);
        long thirdStart = clock.millis();
        lease.handedOn(second);
        committer.newAppend().addFiles(first).commit();
        committer.newAppend().addFiles(second).commit();
        committer.newCompaction().full().execute();
        List<DataFile> third = written();
        clock.advance(1_000);
        long fourthStart = clock.millis();
        lease.handedOn(third); // not committed yet

        clock.advance(TTL.toMillis() / 3);
        lease.renewIfDue();
        // The first two are committed (their files compacted away since), the third is not.
        assertThat(lease.oldestFileMillis()).isEqualTo(thirdStart).isGreaterThan(secondStart);
        assertThat(storedOldest()).isEqualTo(thirdStart);

        committer.newAppend().addFiles(third).commit();
        clock.advance(TTL.toMillis() / 3);
        lease.renewIfDue();
        assertThat(lease.oldestFileMillis()).isEqualTo(fourthStart);
        assertThat(storedOldest()).isEqualTo(fourthStart);
        lease.close();
        assertThat(table.writerLeases().list()).isEmpty();
    }

    /** One file per bucket with a new key each, not yet handed on. */
    private List<DataFile> written() throws Exception {
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < 4; i++) {
                write.write(BinaryRowWriter.toRow(SCHEMA.rowType(), nextKey++, "v"));
            }
            return write.prepareCommit();
        }
    }

    private long storedOldest() {
        List<WriterLease> leases = table.writerLeases().list();
        assertThat(leases).hasSize(1);
        return leases.get(0).oldestFileMillis();
    }

    /** Counts commit-file probes and reads, and writer-lease writes. */
    private static final class CountingIO extends ForwardingFileIO {
        int probes;
        int commitReads;
        int leaseWrites;

        void reset() {
            probes = 0;
            commitReads = 0;
            leaseWrites = 0;
        }

        @Override
        public boolean exists(String path) throws IOException {
            if (path.contains("/_weir/commits/")) {
                probes++;
            }
            return super.exists(path);
        }

        @Override
        public InputFile newInputFile(String path) {
            if (path.contains("/_weir/commits/")) {
                commitReads++;
            }
            return super.newInputFile(path);
        }

        @Override
        public byte[] readAllBytes(String path) throws IOException {
            if (path.contains("/_weir/commits/")) {
                commitReads++;
            }
            return super.readAllBytes(path);
        }

        @Override
        public void overwrite(String path, byte[] content) throws IOException {
            if (path.contains("/_weir/writers/")) {
                leaseWrites++;
            }
            super.overwrite(path, content);
        }
    }
}
