package io.weir.service;

import io.weir.Compaction;
import io.weir.CompactionResult;
import io.weir.DataFile;
import io.weir.RemoveOrphanFilesResult;
import io.weir.ScanTask;
import io.weir.Table;
import io.weir.Tables;
import io.weir.WriterLease;
import io.weir.exceptions.CommitConflictException;
import io.weir.testing.ForwardingFileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.ShmTempDirFactory;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A compaction holds a writer lease from before its first output file until its commit has landed
 * or failed (issue 25): an orphan removal with a cutoff in the future (every unreferenced file
 * counts as old, as for a compaction slower than the cutoff) that runs between the rewrite and the
 * commit deletes none of the outputs, the commit lands, and the table reads exactly as the model
 * says. Without the lease the outputs are deleted: the commit fails (split API) or, when the
 * removal runs after the commit checked its files, publishes files that no longer exist.
 */
class CompactionLeaseTest {
    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    private final ManualClock clock = new ManualClock(System.currentTimeMillis());
    private final Random random = new Random(7);
    private final CleanBeforeCommitIO io = new CleanBeforeCommitIO();
    private String location;
    private Table table;
    private ModelTable model;
    private long lastAppend;

    @BeforeEach
    void setUp() {
        location = dir.resolve("t").toString();
        model = ModelTable.create(io, location, Map.of("bucket", "2"), clock);
        table = model.table;
        for (int i = 0; i < 4; i++) {
            lastAppend = model.append(random, 30);
        }
    }

    /** Orphan removal that counts every unreferenced file as old: the worst cutoff. */
    private RemoveOrphanFilesResult cleanEverything() {
        return Tables.load(io, location, clock)
                .removeOrphanFiles()
                .olderThan(System.currentTimeMillis() + 3_600_000)
                .execute();
    }

    @Test
    void rewrittenOutputsSurviveAnOrphanRemovalUntilTheCommit() throws Exception {
        Compaction compaction = table.newCompaction().full();
        List<ScanTask> tasks = compaction.plan();
        assertThat(table.writerLeases().list()).as("planning takes no lease").isEmpty();
        List<DataFile> outputs = new ArrayList<>();
        for (ScanTask task : tasks) {
            outputs.addAll(compaction.rewrite(task));
        }
        assertThat(table.writerLeases().list())
                .singleElement()
                .satisfies(l -> assertThat(l.writerId()).startsWith("compaction-"));

        RemoveOrphanFilesResult clean = cleanEverything();
        assertThat(clean.orphanFiles()).isEmpty();
        assertThat(clean.inFlightFiles()).isEqualTo(outputs.size());
        for (DataFile f : outputs) {
            assertThat(io.exists(location + "/" + f.path())).as(f.path()).isTrue();
        }

        CompactionResult result = compaction.commit(tasks, outputs);
        assertThat(result.filesAdded()).isEqualTo(outputs.size());
        assertThat(table.writerLeases().list()).as("the commit ends the lease").isEmpty();
        assertExact(result.commitId());
        // Committed: the outputs are referenced, the inputs still by the older snapshots.
        assertThat(cleanEverything().orphanFiles()).isEmpty();
        assertExact(result.commitId());
    }

    @Test
    void executeKeepsItsOutputsFromAnOrphanRemovalJustBeforeItsCommitFile() {
        io.cleanBeforeNextCommit = true;
        CompactionResult result = table.newCompaction().full().execute();
        assertThat(io.cleaned).as("orphan removal ran before the commit file").isNotNull();
        assertThat(io.cleaned.orphanFiles()).isEmpty();
        assertThat(io.cleaned.inFlightFiles()).isEqualTo(result.filesAdded());
        assertThat(table.writerLeases().list()).isEmpty();
        assertExact(result.commitId());
    }

    @Test
    void aLeaseSharedByRewritersInOtherProcessesEndsWithTheCommit() {
        // The planner takes the lease; each "process" loads the table and shares it.
        WriterLease lease = table.newCompaction().lease();
        List<ScanTask> tasks = table.newCompaction().full().plan();
        assertThat(tasks).hasSizeGreaterThan(1);
        List<DataFile> outputs = new ArrayList<>();
        for (ScanTask task : tasks) {
            Compaction rewriter = Tables.load(io, location, clock).newCompaction();
            outputs.addAll(rewriter.shareLease(lease).rewrite(task));
        }
        assertThat(table.writerLeases().list())
                .singleElement()
                .satisfies(
                        l -> {
                            assertThat(l.writerId()).isEqualTo(lease.writerId());
                            assertThat(l.oldestFileMillis()).isEqualTo(lease.oldestFileMillis());
                        });
        assertThat(cleanEverything().orphanFiles()).isEmpty();

        long commit =
                Tables.load(io, location, clock)
                        .newCompaction()
                        .shareLease(lease)
                        .commit(tasks, outputs)
                        .commitId();
        assertThat(table.writerLeases().list()).isEmpty();
        assertExact(commit);
    }

    @Test
    void abortAndAFailedCommitEndTheLease() {
        Compaction aborted = table.newCompaction().full();
        ScanTask task = aborted.plan().get(0);
        List<DataFile> outputs = aborted.rewrite(task);
        assertThat(table.writerLeases().list()).hasSize(1);
        aborted.abort(outputs);
        assertThat(table.writerLeases().list()).isEmpty();
        for (DataFile f : outputs) {
            assertThat(new java.io.File(location, f.path())).doesNotExist();
        }

        // Two compactions of the same group: the later commit conflicts, and ends its lease too.
        Compaction first = table.newCompaction().full();
        Compaction second = table.newCompaction().full();
        List<ScanTask> tasks = first.plan();
        List<DataFile> secondOutputs = second.rewrite(tasks.get(0));
        long commit = first.commit(tasks, rewriteAll(first, tasks)).commitId();
        assertThat(table.writerLeases().list()).hasSize(1);
        assertThatThrownBy(() -> second.commit(List.of(tasks.get(0)), secondOutputs))
                .isInstanceOf(CommitConflictException.class);
        assertThat(table.writerLeases().list()).isEmpty();
        assertExact(commit);
    }

    @Test
    void aLeaseIsRenewedWhileTheCompactionRunsAndEndsOnItsOwnIfTheProcessDies() {
        Compaction compaction = table.newCompaction().full();
        List<ScanTask> tasks = compaction.plan();
        compaction.rewrite(tasks.get(0));
        WriterLease taken = table.writerLeases().list().get(0);
        assertThat(taken.expiresMillis()).isEqualTo(clock.millis() + 3_600_000);

        // A third of the duration on, the next output file renews it (same time, later end).
        clock.advance(Duration.ofMinutes(21));
        compaction.rewrite(tasks.get(1));
        WriterLease renewed = table.writerLeases().list().get(0);
        assertThat(renewed.writerId()).isEqualTo(taken.writerId());
        assertThat(renewed.oldestFileMillis()).isEqualTo(taken.oldestFileMillis());
        assertThat(renewed.expiresMillis()).isEqualTo(clock.millis() + 3_600_000);

        // The process dies here: nothing commits or ends the lease. It protects the outputs until
        // it ends (Compaction.LEASE_TTL after its last renewal); then they are orphans.
        clock.advance(Duration.ofMinutes(59));
        assertThat(cleanEverything().orphanFiles()).isEmpty();
        clock.advance(Duration.ofMinutes(2));
        assertThat(cleanEverything().orphanFiles()).isNotEmpty();
        assertExact(lastAppend);
    }

    private static List<DataFile> rewriteAll(Compaction compaction, List<ScanTask> tasks) {
        List<DataFile> out = new ArrayList<>();
        tasks.forEach(t -> out.addAll(compaction.rewrite(t)));
        return out;
    }

    /** The compaction changed no row, and every file it committed exists. */
    private void assertExact(long commitId) {
        Table fresh = Tables.load(io, location, clock);
        assertThat(ModelTable.read(fresh, commitId)).isEqualTo(model.expected(lastAppend));
        for (DataFile f : fresh.snapshot(commitId).files()) {
            assertThat(new java.io.File(location, f.path())).as(f.path()).exists();
        }
    }

    /**
     * Runs an orphan removal with the worst cutoff right before the next commit file is written:
     * after the commit checked that its files exist.
     */
    private final class CleanBeforeCommitIO extends ForwardingFileIO {
        boolean cleanBeforeNextCommit;
        RemoveOrphanFilesResult cleaned;

        @Override
        public boolean writeIfAbsent(String path, byte[] content) throws IOException {
            if (cleanBeforeNextCommit && path.contains("/_weir/commits/")) {
                cleanBeforeNextCommit = false;
                cleaned = cleanEverything();
            }
            return super.writeIfAbsent(path, content);
        }
    }
}
