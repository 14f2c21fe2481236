package io.weir.service;

import io.weir.Compaction;
import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.ScanTask;
import io.weir.Table;
import io.weir.exceptions.FileGroupCompactionException;
import io.weir.io.InputFile;
import io.weir.io.OutputFile;
import io.weir.io.PositionOutputStream;
import io.weir.testing.ForwardingFileIO;
import io.weir.testing.ManualClock;
import io.weir.testing.ShmTempDirFactory;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Compaction#rewriteAll}: groups rewritten on several threads commit the model's rows; a
 * failed group, a listener that throws and an interrupt each leave no output behind and end the
 * lease.
 */
class GroupRewritesTest {
    @TempDir(factory = ShmTempDirFactory.class)
    Path dir;

    private final FailingReadsIO io = new FailingReadsIO();
    private String location;
    private Table table;
    private ModelTable model;
    private long lastAppend;

    @BeforeEach
    void setUp() {
        location = dir.resolve("t").toString();
        model =
                ModelTable.create(
                        io,
                        location,
                        Map.of("bucket", "3"),
                        new ManualClock(System.currentTimeMillis()));
        table = model.table;
        Random random = new Random(11);
        for (int i = 0; i < 4; i++) {
            lastAppend = model.append(random, 60);
        }
    }

    @Test
    void groupsRewrittenOnTwoThreadsCommitTheModelsRows() throws Exception {
        Compaction compaction = table.newCompaction().full();
        List<ScanTask> tasks = compaction.plan();
        assertThat(tasks).hasSize(6); // 2 partitions x 3 buckets
        List<FileGroupId> heard = Collections.synchronizedList(new ArrayList<>());
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        // The first two groups wait for each other: only two threads at once get both through.
        CountDownLatch together = new CountDownLatch(2);
        List<DataFile> outputs =
                compaction.rewriteAll(
                        tasks,
                        2,
                        (task, written) -> {
                            heard.add(task.fileGroup());
                            threads.add(Thread.currentThread().getName());
                            together.countDown();
                            try {
                                assertThat(together.await(60, TimeUnit.SECONDS))
                                        .as("a second group rewritten alongside")
                                        .isTrue();
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                            assertThat(written)
                                    .allSatisfy(
                                            f ->
                                                    assertThat(f.fileGroup())
                                                            .isEqualTo(task.fileGroup()));
                        });
        List<FileGroupId> planned = tasks.stream().map(ScanTask::fileGroup).toList();
        assertThat(heard).containsExactlyInAnyOrderElementsOf(planned);
        assertThat(threads).allSatisfy(name -> assertThat(name).startsWith("weir-rewrite-"));
        assertThat(outputs.stream().map(DataFile::fileGroup).distinct().toList())
                .as("outputs in the plan's order")
                .isEqualTo(planned);

        long commit = compaction.commit(tasks, outputs).commitId();
        assertThat(ModelTable.read(table, commit)).isEqualTo(model.expected(lastAppend));
        table.refresh();
        assertThat(table.currentSnapshot().fileGroups().values())
                .allSatisfy(files -> assertThat(files).hasSize(1));
        assertThat(table.writerLeases().list()).isEmpty();
    }

    @Test
    void aFailedGroupNamesItselfAndLeavesNoOutputBehind() {
        Compaction compaction = table.newCompaction().full();
        List<ScanTask> tasks = compaction.plan();
        ScanTask bad = tasks.get(1);
        io.failReadsOf = bad.files().get(0).path();
        List<String> before = dataFiles();

        assertThatThrownBy(() -> compaction.rewriteAll(tasks, 2, (task, written) -> {}))
                .isInstanceOf(FileGroupCompactionException.class)
                .hasMessage(
                        "Compaction of file group "
                                + bad.fileGroup()
                                + " ("
                                + bad.files().size()
                                + " files) of table "
                                + location
                                + " failed: cannot read "
                                + io.failReadsOf)
                .satisfies(
                        e ->
                                assertThat(((FileGroupCompactionException) e).fileGroup())
                                        .isEqualTo(bad.fileGroup().toString()))
                .hasCauseInstanceOf(UncheckedIOException.class);
        io.failReadsOf = null;
        assertNothingLeft(before);
    }

    /** A base file that fails half-written is deleted with the rest, not left as an orphan. */
    @Test
    void aBaseFileThatFailsHalfWrittenIsDeletedToo() {
        Compaction compaction = table.newCompaction().full();
        List<ScanTask> tasks = compaction.plan();
        List<String> before = dataFiles();
        io.failBaseFileCloses = true;

        assertThatThrownBy(() -> compaction.rewriteAll(tasks, 1, (task, written) -> {}))
                .isInstanceOf(FileGroupCompactionException.class)
                .hasMessageContaining("Compaction of file group " + tasks.get(0).fileGroup())
                .hasMessageContaining("Cannot finish base file");
        io.failBaseFileCloses = false;
        assertNothingLeft(before);
    }

    @Test
    void aListenerThatThrowsStopsTheRewritesAsItIs() {
        Compaction compaction = table.newCompaction().full();
        List<ScanTask> tasks = compaction.plan();
        List<String> before = dataFiles();
        IllegalStateException stop = new IllegalStateException("stop");
        List<FileGroupId> heard = new ArrayList<>();

        assertThatThrownBy(
                        () ->
                                compaction.rewriteAll(
                                        tasks,
                                        1,
                                        (task, written) -> {
                                            heard.add(task.fileGroup());
                                            throw stop;
                                        }))
                .isSameAs(stop);
        assertThat(heard).as("no group after the failure").hasSize(1);
        assertNothingLeft(before);
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2})
    void anInterruptStopsTheRewrites(int threads) {
        {
            Compaction compaction = table.newCompaction().full();
            List<ScanTask> tasks = compaction.plan();
            List<String> before = dataFiles();
            Thread caller = Thread.currentThread();
            List<FileGroupId> heard = Collections.synchronizedList(new ArrayList<>());

            assertThatThrownBy(
                            () ->
                                    compaction.rewriteAll(
                                            tasks,
                                            threads,
                                            (task, written) -> {
                                                heard.add(task.fileGroup());
                                                caller.interrupt();
                                            }))
                    .as("%d threads", threads)
                    .isInstanceOf(InterruptedException.class)
                    .hasMessage(
                            "Compaction of table "
                                    + location
                                    + " interrupted; nothing was committed");
            assertThat(Thread.interrupted()).as("the exception says so, not the flag").isFalse();
            assertThat(heard.size()).as("groups heard of").isLessThan(tasks.size());
            assertNothingLeft(before);
        }
    }

    @Test
    void refusesFewerThanOneThread() {
        Compaction compaction = table.newCompaction().full();
        List<ScanTask> tasks = compaction.plan();
        assertThatThrownBy(() -> compaction.rewriteAll(tasks, 0, (task, written) -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot compact table " + location + " on 0 threads: at least 1");
    }

    /** No output is left, no lease held, nothing committed, and the table reads as before. */
    private void assertNothingLeft(List<String> before) {
        assertThat(dataFiles()).isEqualTo(before);
        assertThat(table.writerLeases().list()).isEmpty();
        table.refresh();
        assertThat(table.currentSnapshot().id()).isEqualTo(lastAppend);
        assertThat(ModelTable.read(table, lastAppend)).isEqualTo(model.expected(lastAppend));
    }

    private List<String> dataFiles() {
        return ModelTable.filesUnder(io, location).stream()
                .filter(p -> !p.contains("/_weir/"))
                .toList();
    }

    /**
     * Fails every read of one data file (a path relative to the table), or the close of every base
     * file written (after its bytes are on disk).
     */
    private static final class FailingReadsIO extends ForwardingFileIO {
        volatile String failReadsOf;
        volatile boolean failBaseFileCloses;

        @Override
        public OutputFile newOutputFile(String path) {
            OutputFile file = super.newOutputFile(path);
            if (!failBaseFileCloses || !path.contains("/base-")) {
                return file;
            }
            return new OutputFile() {
                @Override
                public String path() {
                    return file.path();
                }

                @Override
                public PositionOutputStream create() throws IOException {
                    PositionOutputStream out = file.create();
                    return new PositionOutputStream() {
                        @Override
                        public long getPos() throws IOException {
                            return out.getPos();
                        }

                        @Override
                        public void write(int b) throws IOException {
                            out.write(b);
                        }

                        @Override
                        public void write(byte[] b, int off, int len) throws IOException {
                            out.write(b, off, len);
                        }

                        @Override
                        public void close() throws IOException {
                            out.close();
                            throw new IOException("injected: the device is full");
                        }
                    };
                }
            };
        }

        @Override
        public InputFile newInputFile(String path) {
            if (failReadsOf != null && path.endsWith("/" + failReadsOf)) {
                throw new UncheckedIOException(
                        "cannot read " + failReadsOf, new IOException("injected"));
            }
            return super.newInputFile(path);
        }
    }
}
