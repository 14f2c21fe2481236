package io.weir.write;

import io.weir.DataFile;
import io.weir.PendingFilesLease;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.WriterLease;
import io.weir.data.BinaryRowWriter;
import io.weir.testing.CommitFileProbes;
import io.weir.types.DataTypes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a writer's hand-over costs the table's storage: one refresh of the table's head, however the
 * lease is renewed after it (on an object store every refresh is two or more requests, per writer
 * and checkpoint), and the lease still follows the commits.
 */
class PendingFilesLeaseRefreshTest {
    @TempDir Path dir;

    @Test
    void aHandOverRefreshesTheTableOnceAndTheLeaseFollowsTheCommits() throws Exception {
        CommitFileProbes io = new CommitFileProbes();
        Schema schema =
                Schema.builder()
                        .column("id", DataTypes.BIGINT())
                        .column("name", DataTypes.STRING())
                        .primaryKey("id")
                        .build();
        Table table = Tables.create(io, dir.resolve("t").toString(), schema, Map.of("bucket", "2"));
        try (TableWrite first = table.newWrite().create()) {
            first.write(BinaryRowWriter.toRow(schema.rowType(), 0L, "a"));
            table.newAppend().addFiles(first.prepareCommit()).commit();
        }
        PendingFilesLease lease =
                new PendingFilesLeaseImpl(table, "job-1.w-0", Duration.ofMinutes(10));
        TableWrite write = table.newWrite().create();
        write.write(BinaryRowWriter.toRow(schema.rowType(), 1L, "b"));
        List<DataFile> files = write.prepareCommit();

        int before = io.probes();
        lease.handedOn(files);
        // One refresh with nothing new: is there a commit after the known one (no), is the known
        // one still there (yes).
        assertThat(io.probes() - before).isEqualTo(2);
        long handedOnAt = System.currentTimeMillis();

        // The hand-over is committed; the next (empty) hand-over renews the lease, which then
        // protects nothing older than that renewal.
        table.newAppend().addFiles(files).commit();
        lease.handedOn(List.of());
        assertThat(table.writerLeases().list())
                .singleElement()
                .extracting(WriterLease::oldestFileMillis)
                .satisfies(t -> assertThat(t).isGreaterThanOrEqualTo(handedOnAt));
        write.close();
        lease.close();
        assertThat(table.writerLeases().list()).isEmpty();
    }
}
