package io.weir.aws;

import io.weir.aws.S3RequestCounts.Kind;
import io.weir.aws.testing.S3Server;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.io.FileStatus;
import io.weir.io.PositionOutputStream;
import io.weir.io.SeekableInputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@link io.weir.io.FileIO} contract of {@link S3FileIO}, against a real server. */
class S3FileIOTest {
    private static final int PART = 5 << 20;
    private static final int READ_AHEAD = 64 << 10;

    private static S3Server server;
    private static S3FileIO io;
    private final String root = "s3://" + S3Server.BUCKET + "/io-" + UUID.randomUUID();

    @BeforeAll
    static void start() {
        server = S3Server.get();
        io =
                new S3FileIO(
                        server.options()
                                .with(
                                        Map.of(
                                                "s3.multipart.part-size", "5 mb",
                                                "s3.read-ahead", "64 kb")));
    }

    @AfterAll
    static void stop() {
        io.close();
    }

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Writes in uneven pieces and single bytes, checking the position all along. */
    private static void write(FileIO io, String path, byte[] data) throws Exception {
        try (PositionOutputStream out = io.newOutputFile(path).create()) {
            int off = 0;
            int piece = 1;
            while (off < data.length) {
                if (piece % 5 == 0) {
                    out.write(data[off]);
                    off++;
                } else {
                    int n = Math.min(data.length - off, piece * 777_777 % 3_000_001 + 1);
                    out.write(data, off, n);
                    off += n;
                }
                piece++;
                assertThat(out.getPos()).isEqualTo(off);
            }
            assertThat(out.getPos()).isEqualTo(data.length);
        }
    }

    @Test
    void roundTripsAroundThePartSize() throws Exception {
        int[] sizes = {0, 1, PART - 1, PART, PART + 1, 3 * PART + 17};
        for (int size : sizes) {
            String path = root + "/data/file-" + size;
            byte[] data = random(size, size);
            S3RequestCounts before = io.requestCounts();
            write(io, path, data);
            S3RequestCounts cost = io.requestCounts().minus(before);
            assertThat(cost.get(Kind.HEAD)).as("HEAD at create, size %d", size).isEqualTo(1);
            if (size <= PART) {
                assertThat(cost.get(Kind.PUT)).as("one PUT, size %d", size).isEqualTo(1);
                assertThat(cost.get(Kind.CREATE_MULTIPART)).isZero();
            } else {
                assertThat(cost.get(Kind.PUT)).isZero();
                assertThat(cost.get(Kind.CREATE_MULTIPART)).isEqualTo(1);
                assertThat(cost.get(Kind.UPLOAD_PART)).isEqualTo((size + PART - 1) / PART);
                assertThat(cost.get(Kind.COMPLETE_MULTIPART)).isEqualTo(1);
            }
            assertThat(io.newInputFile(path).length()).isEqualTo(size);
            assertThat(io.readAllBytes(path)).as("size %d", size).isEqualTo(data);
            try (SeekableInputStream in = io.newInputFile(path).newStream()) {
                assertThat(in.readAllBytes()).isEqualTo(data);
                assertThat(in.read()).isEqualTo(-1);
            }
        }
        assertThat(server.pendingUploads(S3Server.BUCKET, root.substring(root.indexOf("io-"))))
                .isEmpty();
    }

    @Test
    void seeksAndRangedReads() throws Exception {
        String path = root + "/ranged";
        byte[] data = random(1_000_003, 7);
        write(io, path, data);
        try (SeekableInputStream in = io.newInputFile(path).newStream()) {
            S3RequestCounts start = io.requestCounts();
            assertThat(in.read()).isEqualTo(data[0] & 0xff);
            // The first GET fetched READ_AHEAD bytes: reads and seeks within them are free.
            in.seek(READ_AHEAD - 10);
            byte[] ten = new byte[10];
            in.readFully(ten, 0, 10);
            assertThat(ten).isEqualTo(Arrays.copyOfRange(data, READ_AHEAD - 10, READ_AHEAD));
            in.seek(5);
            assertThat(in.read()).isEqualTo(data[5] & 0xff);
            assertThat(in.getPos()).isEqualTo(6);
            assertThat(io.requestCounts().minus(start).get(Kind.GET)).isEqualTo(1);

            // A read across the buffer's end takes the buffered part, then one more GET.
            in.seek(READ_AHEAD - 3);
            byte[] across = new byte[8];
            in.readFully(across, 0, 8);
            assertThat(across).isEqualTo(Arrays.copyOfRange(data, READ_AHEAD - 3, READ_AHEAD + 5));
            assertThat(io.requestCounts().minus(start).get(Kind.GET)).isEqualTo(2);

            // A large read goes straight into the caller's array.
            in.seek(500_000);
            byte[] big = new byte[300_000];
            in.readFully(big, 0, big.length);
            assertThat(big).isEqualTo(Arrays.copyOfRange(data, 500_000, 800_000));
            assertThat(in.getPos()).isEqualTo(800_000);

            // The end: a short last read, then -1, and readFully past it fails.
            in.seek(data.length - 2);
            byte[] tail = new byte[5];
            assertThat(in.read(tail, 0, 5)).isEqualTo(2);
            assertThat(in.read()).isEqualTo(-1);
            in.seek(data.length + 100);
            assertThat(in.read(tail, 0, 5)).isEqualTo(-1);
            in.seek(data.length - 1);
            assertThatThrownBy(() -> in.readFully(tail, 0, 2)).isInstanceOf(EOFException.class);

            in.seek(10);
            assertThat(in.skip(20)).isEqualTo(20);
            assertThat(in.read()).isEqualTo(data[30] & 0xff);
        }
    }

    @Test
    void missingFiles() throws Exception {
        String path = root + "/missing";
        assertThat(io.exists(path)).isFalse();
        assertThatThrownBy(() -> io.newInputFile(path).length())
                .isInstanceOf(FileNotFoundException.class)
                .hasMessage("File does not exist: " + path);
        assertThatThrownBy(() -> io.readAllBytes(path))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessage("File does not exist: " + path);
        assertThatThrownBy(() -> io.newInputFile(path).newStream().read())
                .isInstanceOf(FileNotFoundException.class)
                .hasMessage("File does not exist: " + path);
        io.delete(path); // missing is fine
        io.deleteFiles(List.of(path));
        assertThat(io.list(root + "/nothing-here")).isEmpty();
        assertThat(io.listRecursive(root + "/nothing-here")).isEmpty();
        assertThat(io.listDirectories(root + "/nothing-here")).isEmpty();
    }

    @Test
    void listingsPageAndDeleteInBatches() throws Exception {
        String dir = root + "/many";
        List<String> files = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < 1_050; i++) {
                String path = String.format("%s/f-%04d", dir, i);
                files.add(path);
                done.add(
                        pool.submit(
                                () -> {
                                    io.overwrite(path, new byte[] {1, 2, 3});
                                    return null;
                                }));
            }
            for (int i = 0; i < 3; i++) {
                String path = dir + "/sub-" + i + "/deep/x";
                files.add(path);
                done.add(
                        pool.submit(
                                () -> {
                                    io.overwrite(path, new byte[] {4});
                                    return null;
                                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        long startMillis = System.currentTimeMillis();

        S3RequestCounts before = io.requestCounts();
        List<FileStatus> listed = io.list(dir);
        assertThat(io.requestCounts().minus(before).get(Kind.LIST)).isEqualTo(2);
        assertThat(listed).hasSize(1_050);
        assertThat(listed.stream().map(FileStatus::path).sorted().toList())
                .isEqualTo(files.subList(0, 1_050));
        assertThat(listed).allSatisfy(s -> assertThat(s.length()).isEqualTo(3));
        assertThat(listed)
                .allSatisfy(
                        s ->
                                assertThat(s.modificationTimeMillis())
                                        .isBetween(startMillis - 120_000, startMillis + 2_000));
        // With a trailing slash, the paths keep the form asked for.
        assertThat(io.list(dir + "/").get(0).path()).startsWith(dir + "/f-");

        List<FileStatus> all = io.listRecursive(dir);
        assertThat(all.stream().map(FileStatus::path).sorted().toList())
                .isEqualTo(files.stream().sorted().toList());
        assertThat(io.listRecursive(dir + "/sub-1"))
                .extracting(FileStatus::path)
                .containsExactly(dir + "/sub-1/deep/x");
        assertThat(io.listDirectories(dir))
                .containsExactly(dir + "/sub-0", dir + "/sub-1", dir + "/sub-2");
        assertThat(io.listDirectories(dir + "/sub-0")).containsExactly(dir + "/sub-0/deep");

        before = io.requestCounts();
        List<String> toDelete = new ArrayList<>(files);
        toDelete.add(dir + "/never-existed");
        io.deleteFiles(toDelete);
        assertThat(io.requestCounts().minus(before).get(Kind.DELETE)).isEqualTo(2);
        assertThat(io.listRecursive(dir)).isEmpty();
    }

    @Test
    void writeIfAbsentHasOneWinner() throws Exception {
        String path = root + "/_weir/commits/00000000000000000001.json";
        assertThat(io.writeIfAbsent(path, bytes("first"))).isTrue();
        assertThat(io.writeIfAbsent(path, bytes("second"))).isFalse();
        assertThat(io.readAllBytes(path)).isEqualTo(bytes("first"));
        // The probe left nothing behind.
        assertThat(io.listRecursive(root + "/_weir"))
                .extracting(FileStatus::path)
                .containsExactly(path);
    }

    @Test
    void twentyRacingWritersOneWinner() throws Exception {
        for (int round = 0; round < 5; round++) {
            String path = root + "/_weir/commits/race-" + round;
            int writers = 20;
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            try {
                List<Future<Boolean>> results = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    byte[] content = bytes("writer-" + w);
                    results.add(
                            pool.submit(
                                    () -> {
                                        go.await();
                                        return io.writeIfAbsent(path, content);
                                    }));
                }
                go.countDown();
                List<Integer> winners = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    if (results.get(w).get()) {
                        winners.add(w);
                    }
                }
                assertThat(winners).as("round %d", round).hasSize(1);
                assertThat(io.readAllBytes(path)).isEqualTo(bytes("writer-" + winners.get(0)));
            } finally {
                pool.shutdown();
            }
        }
    }

    @Test
    void probeRunsOncePerBucket() throws Exception {
        try (S3FileIO fresh = new S3FileIO(server.options())) {
            String first = root + "/t/_weir/schemas/0.json";
            S3RequestCounts before = fresh.requestCounts();
            assertThat(fresh.writeIfAbsent(first, bytes("a"))).isTrue();
            S3RequestCounts cost = fresh.requestCounts().minus(before);
            assertThat(cost.get(Kind.PUT)).isEqualTo(3); // probe, probe again (412), ours
            assertThat(cost.get(Kind.DELETE)).isEqualTo(1);
            before = fresh.requestCounts();
            assertThat(fresh.writeIfAbsent(root + "/t/_weir/commits/1.json", bytes("b"))).isTrue();
            assertThat(fresh.requestCounts().minus(before).total()).isEqualTo(1);
            assertThat(ConditionalPuts.probePrefix("t/_weir/commits/1.json")).isEqualTo("t/_weir/");
            assertThat(ConditionalPuts.probePrefix("a/b")).isEqualTo("a/");
            assertThat(ConditionalPuts.probePrefix("x_weir/b")).isEqualTo("x_weir/");
            assertThat(ConditionalPuts.probePrefix("top")).isEqualTo("");
        }
    }

    @Test
    void createFailsIfTheObjectExists() throws Exception {
        String path = root + "/exists";
        io.overwrite(path, bytes("there"));
        assertThatThrownBy(() -> io.newOutputFile(path).create())
                .isInstanceOf(FileAlreadyExistsException.class);

        // Created by someone else between create() and close(): close fails, theirs stays.
        String raced = root + "/raced";
        PositionOutputStream out = io.newOutputFile(raced).create();
        out.write(bytes("mine"));
        assertThat(io.writeIfAbsent(raced, bytes("theirs"))).isTrue();
        assertThatThrownBy(out::close).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(io.readAllBytes(raced)).isEqualTo(bytes("theirs"));

        // The same for a multipart upload, refused at CompleteMultipartUpload.
        String racedBig = root + "/raced-big";
        PositionOutputStream big = io.newOutputFile(racedBig).create();
        big.write(random(2 * PART + 5, 3));
        assertThat(io.writeIfAbsent(racedBig, bytes("theirs"))).isTrue();
        assertThatThrownBy(big::close).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(io.readAllBytes(racedBig)).isEqualTo(bytes("theirs"));
        assertThat(server.pendingUploads(S3Server.BUCKET, key(racedBig))).isEmpty();
    }

    @Test
    void abortLeavesNothing() throws Exception {
        String small = root + "/aborted-small";
        S3OutputStream out = (S3OutputStream) io.newOutputFile(small).create();
        out.write(bytes("never visible"));
        out.abort();
        assertThat(io.exists(small)).isFalse();
        assertThatThrownBy(() -> out.write(1)).hasMessageContaining("Stream closed");

        String big = root + "/aborted-big";
        S3OutputStream multi = (S3OutputStream) io.newOutputFile(big).create();
        multi.write(random(2 * PART + PART / 2, 5));
        assertThat(server.pendingUploads(S3Server.BUCKET, key(big))).hasSize(1);
        S3RequestCounts before = io.requestCounts();
        multi.abort();
        multi.close(); // after abort: nothing more happens
        assertThat(io.requestCounts().minus(before).get(Kind.ABORT_MULTIPART)).isEqualTo(1);
        assertThat(io.requestCounts().minus(before).get(Kind.COMPLETE_MULTIPART)).isZero();
        assertThat(io.exists(big)).isFalse();
        assertThat(server.pendingUploads(S3Server.BUCKET, key(big))).isEmpty();
    }

    @Test
    void streamDroppedWithoutCloseIsAborted() throws Exception {
        String big = root + "/dropped";
        writeTwoPartsAndDrop(big);
        assertThat(server.pendingUploads(S3Server.BUCKET, key(big))).hasSize(1);
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!server.pendingUploads(S3Server.BUCKET, key(big)).isEmpty()
                && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(100);
        }
        assertThat(server.pendingUploads(S3Server.BUCKET, key(big))).isEmpty();
        assertThat(io.exists(big)).isFalse();
    }

    /** Leaves a stream with two parts uploaded unreachable (in a frame of its own). */
    private static void writeTwoPartsAndDrop(String path) throws Exception {
        PositionOutputStream out = io.newOutputFile(path).create();
        out.write(random(2 * PART + 1, 11));
        // Wait for the parts in flight, so that only the stream itself is left to collect.
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (server.pendingUploads(S3Server.BUCKET, key(path)).isEmpty()
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Thread.sleep(500);
    }

    @Test
    void providerServesS3AndS3a() throws Exception {
        FileIO viaS3 = FileIOs.forLocation(root, server.options());
        FileIO viaS3a = FileIOs.forLocation(root.replace("s3://", "s3a://"), server.options());
        assertThat(viaS3).isInstanceOf(S3FileIO.class).isSameAs(viaS3a);
        String path = root.replace("s3://", "s3a://") + "/via-s3a";
        assertThat(viaS3a.writeIfAbsent(path, bytes("a"))).isTrue();
        assertThat(viaS3.readAllBytes(path.replace("s3a://", "s3://"))).isEqualTo(bytes("a"));
        assertThat(viaS3a.list(root.replace("s3://", "s3a://")))
                .extracting(FileStatus::path)
                .containsExactly(path);
    }

    @Test
    void overwriteReplaces() throws Exception {
        String path = root + "/_weir/LATEST";
        io.overwrite(path, bytes("1\n"));
        io.overwrite(path, bytes("2\n"));
        assertThat(io.readAllBytes(path)).isEqualTo(bytes("2\n"));
    }

    private static String key(String path) {
        return path.substring(("s3://" + S3Server.BUCKET + "/").length());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
