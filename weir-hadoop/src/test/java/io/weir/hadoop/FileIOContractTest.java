package io.weir.hadoop;

import io.weir.io.FileIO;
import io.weir.io.FileStatus;
import io.weir.io.PositionOutputStream;
import io.weir.io.SeekableInputStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link FileIO} must do, as LocalFileIO does it, run against a real HDFS through each
 * scheme weir-hadoop serves. Subclasses give the file system and a root location.
 */
abstract class FileIOContractTest {
    /** Files are written with this block size, so that "large" files span blocks. */
    static final int BLOCK_SIZE = 1 << 20;

    protected FileIO io;
    protected String dir;

    /** The file system under test. */
    protected abstract FileIO io();

    /** A location that no other test uses (need not exist). */
    protected abstract String freshLocation();

    @BeforeEach
    void setUp() {
        io = io();
        dir = freshLocation();
    }

    @Test
    void writesAndReadsFilesOfZeroOneAndManyBlocks() throws Exception {
        for (int size : new int[] {0, 1, 4096, 2 * BLOCK_SIZE + 7}) {
            byte[] data = random(size, size);
            String path = dir + "/data/f-" + size + ".bin";
            try (PositionOutputStream out = io.newOutputFile(path).create()) {
                assertThat(out.getPos()).isZero();
                int half = size / 2;
                out.write(data, 0, half);
                assertThat(out.getPos()).isEqualTo(half);
                if (size > half) {
                    out.write(data[half]);
                    out.write(data, half + 1, size - half - 1);
                }
                assertThat(out.getPos()).isEqualTo(size);
            }
            assertThat(io.newInputFile(path).length()).isEqualTo(size);
            assertThat(io.readAllBytes(path)).isEqualTo(data);
            try (SeekableInputStream in = io.newInputFile(path).newUncachedStream()) {
                assertThat(in.readAllBytes()).isEqualTo(data);
            }
        }
    }

    @Test
    void seeksAndReadsFullyAcrossBlocks() throws Exception {
        int size = 2 * BLOCK_SIZE + 100;
        byte[] data = random(size, 7);
        String path = dir + "/seek.bin";
        try (PositionOutputStream out = io.newOutputFile(path).create()) {
            out.write(data);
        }
        Random random = new Random(11);
        try (SeekableInputStream in = io.newInputFile(path).newStream()) {
            byte[] buf = new byte[5000];
            // around the block boundaries, then anywhere, forwards and backwards
            long[] starts = {BLOCK_SIZE - 2500, 2L * BLOCK_SIZE - 4999, 0, size - 5000};
            for (long start : starts) {
                in.seek(start);
                assertThat(in.getPos()).isEqualTo(start);
                in.readFully(buf, 0, buf.length);
                assertThat(buf)
                        .isEqualTo(Arrays.copyOfRange(data, (int) start, (int) start + 5000));
                assertThat(in.getPos()).isEqualTo(start + 5000);
            }
            for (int i = 0; i < 50; i++) {
                int pos = random.nextInt(size - 10);
                in.seek(pos);
                assertThat(in.read()).isEqualTo(data[pos] & 0xff);
                in.readFully(buf, 3, 9);
                assertThat(Arrays.copyOfRange(buf, 3, 12))
                        .isEqualTo(Arrays.copyOfRange(data, pos + 1, pos + 10));
            }
            in.seek(size - 10);
            assertThatThrownBy(() -> in.readFully(buf, 0, 11)).isInstanceOf(EOFException.class);
            in.seek(size);
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void createFailsIfTheFileExists() throws Exception {
        String path = dir + "/once.bin";
        try (PositionOutputStream out = io.newOutputFile(path).create()) {
            out.write(1);
        }
        assertThatThrownBy(() -> io.newOutputFile(path).create())
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(path);
        assertThat(io.readAllBytes(path)).containsExactly(1);
    }

    @Test
    void aMissingFileIsFileNotFoundNamingThePath() {
        String path = dir + "/missing.bin";
        String message = "File does not exist: " + path;
        assertThatThrownBy(() -> io.newInputFile(path).length())
                .isInstanceOf(FileNotFoundException.class)
                .hasMessage(message);
        assertThatThrownBy(() -> io.newInputFile(path).newStream().read())
                .isInstanceOf(FileNotFoundException.class)
                .hasMessage(message);
        assertThatThrownBy(() -> io.readAllBytes(path))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessage(message);
    }

    @Test
    void listsFilesDirectlyUnderADirectoryInTheCallersForm() throws Exception {
        write(dir + "/t/a.json", "a");
        write(dir + "/t/b.json", "bb");
        write(dir + "/t/sub/c.json", "ccc");
        assertThat(paths(io.list(dir + "/t")))
                .containsExactlyInAnyOrder(dir + "/t/a.json", dir + "/t/b.json");
        assertThat(paths(io.list(dir + "/t/")))
                .containsExactlyInAnyOrder(dir + "/t/a.json", dir + "/t/b.json");
        FileStatus b =
                io.list(dir + "/t").stream()
                        .filter(s -> s.path().endsWith("b.json"))
                        .findFirst()
                        .orElseThrow();
        assertThat(b.length()).isEqualTo(2);
        assertThat(b.modificationTimeMillis())
                .isBetween(
                        System.currentTimeMillis() - 600_000, System.currentTimeMillis() + 600_000);
        assertThat(io.list(dir + "/nothing-here")).isEmpty();
        assertThat(io.list(dir + "/t/a.json")).isEmpty();
    }

    @Test
    void listsRecursivelyAndListsDirectories() throws Exception {
        write(dir + "/t/a", "1");
        write(dir + "/t/p=1/bucket-0/log-1", "22");
        write(dir + "/t/p=1/bucket-1/log-2", "333");
        write(dir + "/t/p=2/bucket-0/base-1", "4444");
        assertThat(paths(io.listRecursive(dir + "/t")))
                .containsExactlyInAnyOrder(
                        dir + "/t/a",
                        dir + "/t/p=1/bucket-0/log-1",
                        dir + "/t/p=1/bucket-1/log-2",
                        dir + "/t/p=2/bucket-0/base-1");
        assertThat(paths(io.listRecursive(dir + "/t/p=1/")))
                .containsExactlyInAnyOrder(
                        dir + "/t/p=1/bucket-0/log-1", dir + "/t/p=1/bucket-1/log-2");
        assertThat(io.listRecursive(dir + "/t/p=2").get(0).length()).isEqualTo(4);
        assertThat(io.listRecursive(dir + "/nothing-here")).isEmpty();
        assertThat(io.listDirectories(dir + "/t")).containsExactly(dir + "/t/p=1", dir + "/t/p=2");
        assertThat(io.listDirectories(dir + "/t/p=1/"))
                .containsExactly(dir + "/t/p=1/bucket-0", dir + "/t/p=1/bucket-1");
        assertThat(io.listDirectories(dir + "/nothing-here")).isEmpty();
    }

    @Test
    void writeIfAbsentHasExactlyOneWinnerAmongRacingWritersAndNoReaderSeesAPartialFile()
            throws Exception {
        int writers = 20;
        String path = dir + "/_weir/commits/00000000000000000001.json";
        // large enough to take several packets, so that a partial file would be visible
        int size = 300_000;
        List<byte[]> contents = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            contents.add(random(size, 100 + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger reads = new AtomicInteger();
        try {
            Future<?> reader =
                    pool.submit(
                            () -> {
                                while (!done.get()) {
                                    try {
                                        byte[] seen = io.readAllBytes(path);
                                        assertThat(seen).hasSize(size);
                                        assertThat(contents)
                                                .anySatisfy(c -> assertThat(c).isEqualTo(seen));
                                        reads.incrementAndGet();
                                    } catch (FileNotFoundException e) {
                                        // not there yet
                                    }
                                }
                                return null;
                            });
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                byte[] content = contents.get(i);
                results.add(
                        pool.submit(
                                () -> {
                                    start.await();
                                    return io.writeIfAbsent(path, content);
                                }));
            }
            start.countDown();
            int winner = -1;
            for (int i = 0; i < writers; i++) {
                if (results.get(i).get(60, TimeUnit.SECONDS)) {
                    assertThat(winner).as("a second winner").isEqualTo(-1);
                    winner = i;
                }
            }
            assertThat(winner).as("a winner").isNotEqualTo(-1);
            // let the reader see the published file a few times
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (reads.get() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            done.set(true);
            reader.get(60, TimeUnit.SECONDS);
            assertThat(reads.get()).isPositive();
            assertThat(io.readAllBytes(path)).isEqualTo(contents.get(winner));
            // the losers cleaned up their temporary files
            assertThat(paths(io.list(dir + "/_weir/commits"))).containsExactly(path);
            assertThat(io.writeIfAbsent(path, new byte[] {1})).isFalse();
            assertThat(io.readAllBytes(path)).isEqualTo(contents.get(winner));
        } finally {
            done.set(true);
            pool.shutdownNow();
        }
    }

    @Test
    void writeIfAbsentCreatesParentsAndWritesEmptyContent() throws Exception {
        String path = dir + "/a/b/c/empty";
        assertThat(io.writeIfAbsent(path, new byte[0])).isTrue();
        assertThat(io.readAllBytes(path)).isEmpty();
        assertThat(io.exists(path)).isTrue();
    }

    @Test
    void overwriteReplacesAtomicallyForReaders() throws Exception {
        String path = dir + "/_weir/LATEST";
        int size = 200_000;
        byte[] first = random(size, 1);
        byte[] second = random(size, 2);
        io.overwrite(path, first);
        assertThat(io.readAllBytes(path)).isEqualTo(first);
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> reader =
                    pool.submit(
                            () -> {
                                int n = 0;
                                while (!done.get()) {
                                    byte[] seen = io.readAllBytes(path);
                                    assertThat(
                                                    Arrays.equals(seen, first)
                                                            || Arrays.equals(seen, second))
                                            .as("old or new, never anything else")
                                            .isTrue();
                                    n++;
                                }
                                return n;
                            });
            for (int i = 0; i < 10; i++) {
                io.overwrite(path, i % 2 == 0 ? second : first);
            }
            done.set(true);
            assertThat(reader.get(60, TimeUnit.SECONDS)).isPositive();
        } finally {
            done.set(true);
            pool.shutdownNow();
        }
        assertThat(io.readAllBytes(path)).isEqualTo(first);
        assertThat(paths(io.list(dir + "/_weir"))).containsExactly(path);
    }

    @Test
    void deletesFilesAndSkipsMissingOnes() throws Exception {
        write(dir + "/d/1", "1");
        write(dir + "/d/2", "2");
        write(dir + "/d/3", "3");
        assertThat(io.exists(dir + "/d/1")).isTrue();
        io.delete(dir + "/d/1");
        assertThat(io.exists(dir + "/d/1")).isFalse();
        io.delete(dir + "/d/1");
        io.delete(dir + "/never/was");
        io.deleteFiles(List.of(dir + "/d/2", dir + "/d/missing", dir + "/d/3"));
        assertThat(io.list(dir + "/d")).isEmpty();
        assertThat(io.exists(dir + "/d/2")).isFalse();
    }

    @Test
    void renamesADirectoryAndFailsIfTheTargetExists() throws Exception {
        write(dir + "/db/t1/_weir/schemas/0.json", "s");
        write(dir + "/db/t1/p/data", "d");
        io.renameDirectory(dir + "/db/t1", dir + "/db2/t2");
        assertThat(io.exists(dir + "/db/t1")).isFalse();
        assertThat(paths(io.listRecursive(dir + "/db2/t2")))
                .containsExactlyInAnyOrder(
                        dir + "/db2/t2/_weir/schemas/0.json", dir + "/db2/t2/p/data");

        write(dir + "/db/t3/x", "x");
        assertThatThrownBy(() -> io.renameDirectory(dir + "/db/t3", dir + "/db2/t2"))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(dir + "/db2/t2");
        assertThat(io.exists(dir + "/db/t3/x")).isTrue();
        assertThat(io.exists(dir + "/db2/t2/t3")).isFalse();
        assertThatThrownBy(() -> io.renameDirectory(dir + "/db/none", dir + "/db2/none"))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining(dir + "/db/none");
    }

    protected void write(String path, String content) throws Exception {
        assertThat(io.writeIfAbsent(path, content.getBytes(StandardCharsets.UTF_8))).isTrue();
    }

    protected static Set<String> paths(List<FileStatus> files) {
        Set<String> out = new HashSet<>();
        for (FileStatus f : files) {
            out.add(f.path());
        }
        return out;
    }

    protected static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    protected static String unique() {
        return UUID.randomUUID().toString().substring(0, 13);
    }
}
