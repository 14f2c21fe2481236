package io.weir.flink.sink;

import io.weir.DataFile;
import io.weir.Partition;
import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.flink.FlinkRows;
import io.weir.flink.sink.internal.CommitterMetrics;
import io.weir.io.LocalFileIO;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The committer on a real table: idempotent re-commits, order, overwrites, failures. */
class WeirCommitterTest {
    @TempDir Path dir;
    private Table table;
    private WeirCommitter committer;

    @BeforeEach
    void setUp() {
        table = SinkTestTables.create(dir, SinkTestTables.keyedSchema(), 2);
        committer =
                new WeirCommitter(
                        LocalFileIO::new,
                        table.location(),
                        new CommitterMetrics(new UnregisteredMetricsGroup(), 0),
                        null);
    }

    private List<DataFile> write(RowData... rows) {
        FlinkRows.ToWeir toWeir = new FlinkRows.ToWeir(SinkTestTables.rowType());
        try (TableWrite write = table.newWrite().create()) {
            for (RowData row : rows) {
                write.write(toWeir.convert(row));
            }
            return write.prepareCommit();
        }
    }

    private static RowData row(long id, String dt, long v) {
        return SinkTestTables.row(RowKind.INSERT, id, dt, v, "n");
    }

    private void commit(Request... requests) {
        committer.commit(new ArrayList<>(List.of(requests)));
    }

    @Test
    void aCommittedCheckpointIsNotCommittedAgain() {
        WeirCommittable c1 = WeirCommittable.append("w", 1, write(row(1, "a", 1)));
        Request first = new Request(c1);
        commit(first);
        assertThat(first.state).isEqualTo("committed");

        // After a failover Flink commits the restored committables again.
        Request again = new Request(c1);
        Request older = new Request(WeirCommittable.append("w", 0, write(row(2, "a", 2))));
        commit(again, older);
        assertThat(again.state).isEqualTo("already committed");
        assertThat(older.state).isEqualTo("already committed");
        assertThat(SinkTestTables.read(table.location()))
                .containsExactly(List.of(1L, "a", 1L, "n"));
        assertThat(Tables.load(table.location()).currentSnapshot().id()).isEqualTo(1);
    }

    @Test
    void committablesAreCommittedInCheckpointOrder() {
        Request later = new Request(WeirCommittable.append("w", 2, write(row(1, "a", 2))));
        Request earlier = new Request(WeirCommittable.append("w", 1, write(row(1, "a", 1))));
        commit(later, earlier);
        assertThat(later.state).isEqualTo("committed");
        assertThat(earlier.state).isEqualTo("committed");
        Table t = Tables.load(table.location());
        assertThat(t.commit(1).checkpointId()).isEqualTo(1);
        assertThat(t.commit(2).checkpointId()).isEqualTo(2);
        assertThat(SinkTestTables.read(table.location()))
                .containsExactly(List.of(1L, "a", 2L, "n"));
    }

    @Test
    void overwritesReplaceTheirPartitionsOrTheTable() {
        commit(new Request(WeirCommittable.append("w", 1, write(row(1, "a", 1), row(2, "b", 2)))));
        commit(
                new Request(
                        new WeirCommittable(
                                "batch",
                                1,
                                WeirCommittable.Kind.OVERWRITE_PARTITIONS,
                                List.of(Partition.of("a")),
                                write(row(3, "a", 3)))));
        assertThat(SinkTestTables.read(table.location()))
                .containsExactly(List.of(2L, "b", 2L, "n"), List.of(3L, "a", 3L, "n"));
        commit(
                new Request(
                        new WeirCommittable(
                                "batch2",
                                1,
                                WeirCommittable.Kind.OVERWRITE_ALL,
                                List.of(),
                                write(row(4, "c", 4)))));
        assertThat(SinkTestTables.read(table.location()))
                .containsExactly(List.of(4L, "c", 4L, "n"));
    }

    /** A commit that cannot succeed fails the job; it is never discarded. */
    @Test
    void aRejectedCommitFailsTheJob() {
        List<DataFile> files = write(row(1, "a", 1));
        commit(new Request(WeirCommittable.append("w", 1, files)));
        Request twice = new Request(WeirCommittable.append("other", 1, files));
        Throwable failure = catchThrowable(() -> commit(twice));
        assertThat(failure).isInstanceOf(IllegalStateException.class);
        assertThat(failure.getCause()).hasMessageContaining("Failing the job");
        assertThat(failure)
                .rootCause()
                .hasMessageContaining("file " + files.get(0).path() + " is live already");
        assertThat(twice.state).isEqualTo("failed, unknown reason");
    }

    /** Records what the committer signalled, as Flink's request would. */
    private static final class Request implements Committer.CommitRequest<WeirCommittable> {
        final WeirCommittable committable;
        String state = "committed";

        Request(WeirCommittable committable) {
            this.committable = committable;
        }

        @Override
        public WeirCommittable getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            state = "failed, known reason";
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            state = "failed, unknown reason";
            throw new IllegalStateException("Failed to commit " + committable, t);
        }

        @Override
        public void retryLater() {
            state = "retry later";
        }

        @Override
        public void updateAndRetryLater(WeirCommittable committable) {
            state = "retry later with update";
        }

        @Override
        public void signalAlreadyCommitted() {
            state = "already committed";
        }
    }
}
