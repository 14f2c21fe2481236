package io.weir.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * New files hold exactly the bytes written, whichever stream writes them: the direct one (whole
 * aligned chunks with {@code O_DIRECT}, the tail through the page cache) or the buffered one; and
 * read-once streams ({@link InputFile#newUncachedStream()}) read exactly the file's bytes, direct
 * or not.
 */
class LocalFileIOTest {
    private static final int BUFFER = DirectOutputStream.BUFFER_SIZE;
    private static final int[] SIZES = {
        0, 1, 4095, 4096, 4097, 70_000, BUFFER - 1, BUFFER, BUFFER + 1, 3 * BUFFER + 12_345
    };

    @TempDir Path dir;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void filesHoldExactlyWhatWasWritten(boolean directWrites) throws IOException {
        LocalFileIO io = new LocalFileIO(directWrites);
        Random random = new Random(directWrites ? 1 : 2);
        for (int size : SIZES) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            String path = dir.resolve("f-" + size).toString();
            try (PositionOutputStream out = io.newOutputFile(path).create()) {
                writeInPieces(out, content, random);
            }
            assertThat(Files.readAllBytes(Path.of(path))).as("size %d", size).isEqualTo(content);
        }
    }

    /** A new file's missing directories are created, whichever way the file is written. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void missingDirectoriesAreCreated(boolean directWrites) throws IOException {
        LocalFileIO io = new LocalFileIO(directWrites);
        String streamed = dir.resolve("a/b/streamed").toString();
        try (PositionOutputStream out = io.newOutputFile(streamed).create()) {
            out.write(new byte[] {1, 2, 3});
        }
        assertThat(Files.readAllBytes(Path.of(streamed))).containsExactly(1, 2, 3);
        String whole = dir.resolve("c/d/whole").toString();
        assertThat(io.writeIfAbsent(whole, new byte[] {4})).isTrue();
        assertThat(io.writeIfAbsent(whole, new byte[] {5})).isFalse();
        io.overwrite(dir.resolve("e/f/replaced").toString(), new byte[] {6});
        assertThat(Files.readAllBytes(Path.of(whole))).containsExactly(4);
        assertThat(Files.readAllBytes(dir.resolve("e/f/replaced"))).containsExactly(6);
        assertThatThrownBy(() -> io.newOutputFile(streamed).create())
                .isInstanceOf(FileAlreadyExistsException.class);
    }

    /** The alignment found once per device is that of each file's own store, on every device. */
    @Test
    void theAlignmentKnownPerDeviceIsThatOfTheFilesStore() throws IOException {
        List<Path> dirs = new ArrayList<>(List.of(dir, dir.resolve("sub")));
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            dirs.add(Files.createTempDirectory(shm, "weir-alignment-"));
        }
        try {
            for (int round = 0; round < 2; round++) {
                for (Path d : dirs) {
                    Files.createDirectories(d);
                    Path file = Files.createTempFile(d, "f", null);
                    assertThat(Files.getAttribute(file, "unix:dev")).isNotNull();
                    assertThat(DirectOutputStream.alignment(file))
                            .as("%s, round %d", file, round)
                            .isEqualTo(DirectOutputStream.alignment(Files.getFileStore(file)));
                    Files.delete(file);
                }
            }
        } finally {
            if (dirs.size() == 3) {
                Files.delete(dirs.get(2));
            }
        }
    }

    @Test
    void theDirectStreamWritesWhereTheFileSystemTakesIt() throws IOException {
        Path path = dir.resolve("direct");
        try (PositionOutputStream probe = create(path)) {
            assumeTrue(probe instanceof DirectOutputStream, "no O_DIRECT on " + dir);
        }
        Files.delete(path);
        Random random = new Random(3);
        for (int size : SIZES) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            Path file = dir.resolve("direct-" + size);
            try (PositionOutputStream out = create(file)) {
                assertThat(out).isInstanceOf(DirectOutputStream.class);
                writeInPieces(out, content, random);
            }
            assertThat(Files.readAllBytes(file)).as("size %d", size).isEqualTo(content);
        }
    }

    @Test
    void afterAFailedDirectWriteTheRestGoesThroughThePlainChannel() throws IOException {
        Random random = new Random(4);
        for (int size : SIZES) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            Path file = dir.resolve("misaligned-" + size);
            FileChannel plain =
                    FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            // An alignment of one byte: direct writes of odd lengths fail (EINVAL, or the JDK's
            // own alignment check) and the stream carries on through the plain channel.
            PositionOutputStream out = DirectOutputStream.openOrNull(file, plain, 1);
            assumeTrue(out != null, "no O_DIRECT on " + dir);
            try (out) {
                writeInPieces(out, content, random);
            }
            assertThat(Files.readAllBytes(file)).as("size %d", size).isEqualTo(content);
            if (size % 512 != 0) {
                // Direct writes of 512-byte multiples alone cannot have written this size.
                assertThat(((DirectOutputStream) out).directFailed()).as("size %d", size).isTrue();
            }
        }
    }

    @Test
    void aFailedWriteBehindFailsTheCallThatWaitsForItNamingTheFile() throws IOException {
        Path file = dir.resolve("unwritable");
        FileChannel plain =
                FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        // Alignment 1 hands the odd-length chunk below to a write behind, where the direct write
        // fails and so does the plain one: its channel is closed.
        PositionOutputStream out = DirectOutputStream.openOrNull(file, plain, 1);
        assumeTrue(out != null, "no O_DIRECT on " + dir);
        plain.close();
        out.write(new byte[BUFFER - 1], 0, BUFFER - 1);
        assertThatThrownBy(out::flush)
                .isInstanceOf(IOException.class)
                .hasMessage("Cannot write " + file)
                .hasCauseInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(out::close).isInstanceOf(ClosedChannelException.class);
        out.close();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void anExistingFileIsNeitherReplacedNorChanged(boolean directWrites) throws IOException {
        Path path = dir.resolve("taken");
        Files.write(path, new byte[] {1, 2, 3});
        OutputFile file = new LocalFileIO(directWrites).newOutputFile(path.toString());
        assertThatThrownBy(file::create).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readAllBytes(path)).containsExactly(1, 2, 3);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aClosedStreamRefusesWritesAndClosesTwice(boolean directWrites) throws IOException {
        String path = dir.resolve("closed").toString();
        PositionOutputStream out = new LocalFileIO(directWrites).newOutputFile(path).create();
        out.write(new byte[5000], 0, 5000);
        out.close();
        out.close();
        assertThatThrownBy(() -> out.write(new byte[1], 0, 1)).isInstanceOf(IOException.class);
        assertThat(Files.size(Path.of(path))).isEqualTo(5000);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void uncachedStreamsReadExactlyTheFile(boolean directIo) throws IOException {
        LocalFileIO io = new LocalFileIO(directIo);
        Random random = new Random(directIo ? 5 : 6);
        for (int size : SIZES) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            Path path = dir.resolve("read-" + size);
            Files.write(path, content);
            try (SeekableInputStream in = io.newInputFile(path.toString()).newUncachedStream()) {
                readInPieces(in, content, random);
            }
        }
    }

    @Test
    void theDirectStreamReadsWhereTheFileSystemTakesIt() throws IOException {
        Path probe = dir.resolve("probe");
        Files.write(probe, new byte[1]);
        try (SeekableInputStream in =
                new LocalFileIO(true).newInputFile(probe.toString()).newUncachedStream()) {
            assumeTrue(
                    in instanceof DirectInputStream
                            && in.read() == 0
                            && !((DirectInputStream) in).directFailed(),
                    "no O_DIRECT reads on " + dir);
        }
        Random random = new Random(7);
        for (int size : SIZES) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            Path path = dir.resolve("direct-read-" + size);
            // Written directly, as data files are: the bytes are on the device, not in the cache.
            try (PositionOutputStream out = create(path)) {
                out.write(content, 0, size);
            }
            try (SeekableInputStream in =
                    new LocalFileIO(true).newInputFile(path.toString()).newUncachedStream()) {
                assertThat(in).isInstanceOf(DirectInputStream.class);
                readInPieces(in, content, random);
                assertThat(((DirectInputStream) in).directFailed()).isFalse();
            }
        }
    }

    @Test
    void afterAFailedDirectReadTheRestGoesThroughThePlainChannel() throws IOException {
        Random random = new Random(8);
        byte[] content = new byte[3 * BUFFER + 12_345];
        random.nextBytes(content);
        Path path = dir.resolve("misaligned-read");
        Files.write(path, content);
        // An alignment of one byte: reads from an odd position are not aligned for O_DIRECT, and
        // fail (EINVAL, or the JDK's own alignment check).
        FileChannel plain = FileChannel.open(path, StandardOpenOption.READ);
        SeekableInputStream in = DirectInputStream.openOrNull(path, plain, 1);
        if (in == null) {
            plain.close();
        }
        assumeTrue(in != null, "no O_DIRECT on " + dir);
        try (in) {
            in.seek(4097);
            byte[] read = new byte[100];
            in.readFully(read, 0, read.length);
            assertThat(read).isEqualTo(Arrays.copyOfRange(content, 4097, 4197));
            assertThat(((DirectInputStream) in).directFailed()).isTrue();
            readInPieces(in, content, random);
        }
    }

    @Test
    void atMostMaxOpenDirectStreamsAreOpenAtOnceAndTheRestReadTheSame() throws IOException {
        byte[] content = new byte[10_000];
        new Random(9).nextBytes(content);
        Path path = dir.resolve("many");
        Files.write(path, content);
        InputFile file = new LocalFileIO(true).newInputFile(path.toString());
        int before = DirectInputStream.openCount();
        List<SeekableInputStream> streams = new ArrayList<>();
        try {
            SeekableInputStream in;
            do {
                in = file.newUncachedStream();
                streams.add(in);
                assertThat(streams.size()).isLessThanOrEqualTo(DirectInputStream.MAX_OPEN + 1);
            } while (in instanceof DirectInputStream);
            assumeTrue(streams.size() > 1, "no O_DIRECT on " + dir);
            assertThat(DirectInputStream.openCount()).isEqualTo(DirectInputStream.MAX_OPEN);
            for (SeekableInputStream s : streams) {
                byte[] read = new byte[content.length];
                s.readFully(read, 0, read.length);
                assertThat(read).isEqualTo(content);
            }
            streams.remove(0).close();
            SeekableInputStream again = file.newUncachedStream();
            streams.add(again);
            assertThat(again).isInstanceOf(DirectInputStream.class);
        } finally {
            for (SeekableInputStream s : streams) {
                s.close();
            }
        }
        assertThat(DirectInputStream.openCount()).isEqualTo(before);
    }

    @Test
    void streamsBeyondTheNativeBuffersWriteThroughThePageCacheAndTheFilesAreTheSame()
            throws IOException {
        LocalFileIO io = new LocalFileIO(true);
        Random random = new Random(11);
        List<PositionOutputStream> streams = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        int direct = 0;
        try {
            PositionOutputStream out;
            do {
                out = io.newOutputFile(dir.resolve("open-" + streams.size()).toString()).create();
                streams.add(out);
                if (out instanceof DirectOutputStream) {
                    direct++;
                }
                assertThat(streams.size()).isLessThanOrEqualTo(AlignedBuffers.MAX_BUFFERS + 1);
            } while (out instanceof DirectOutputStream);
            assumeTrue(direct > 0, "no O_DIRECT on " + dir);
            // Each holds one buffer until it writes its second megabyte: all are taken.
            assertThat(direct).isEqualTo(AlignedBuffers.MAX_BUFFERS);
            for (PositionOutputStream s : streams) {
                byte[] content = new byte[BUFFER + 5_000]; // needs a second buffer, none free
                random.nextBytes(content);
                writeInPieces(s, content, random);
                contents.add(content);
            }
            streams.remove(0).close();
            PositionOutputStream next =
                    io.newOutputFile(dir.resolve("after-close").toString()).create();
            next.close();
            assertThat(next).isInstanceOf(DirectOutputStream.class);
        } finally {
            for (PositionOutputStream s : streams) {
                s.close();
            }
        }
        for (int i = 0; i < contents.size(); i++) {
            assertThat(Files.readAllBytes(dir.resolve("open-" + i)))
                    .as("file %d", i)
                    .isEqualTo(contents.get(i));
        }
        assertThat(AlignedBuffers.allocated()).isLessThanOrEqualTo(AlignedBuffers.MAX_BUFFERS);
    }

    @Test
    void aClosedUncachedStreamRefusesReadsAndClosesTwice() throws IOException {
        Path path = dir.resolve("closed-read");
        Files.write(path, new byte[5000]);
        SeekableInputStream in =
                new LocalFileIO(true).newInputFile(path.toString()).newUncachedStream();
        assertThat(in.read(new byte[10], 0, 10)).isEqualTo(10);
        in.close();
        in.close();
        assertThatThrownBy(() -> in.read(new byte[1], 0, 1)).isInstanceOf(IOException.class);
    }

    private PositionOutputStream create(Path path) throws IOException {
        return new LocalFileIO(true).newOutputFile(path.toString()).create();
    }

    /** Single bytes, small and large arrays, and flushes in between; checks the position. */
    private static void writeInPieces(PositionOutputStream out, byte[] content, Random random)
            throws IOException {
        int at = 0;
        while (at < content.length) {
            int kind = random.nextInt(4);
            if (kind == 0) {
                out.write(content[at++]);
            } else {
                int max = kind == 1 ? 100 : 3 * BUFFER / 2;
                int n = Math.min(content.length - at, 1 + random.nextInt(max));
                out.write(content, at, n);
                at += n;
            }
            if (random.nextInt(8) == 0) {
                out.flush();
            }
            assertThat(out.getPos()).isEqualTo(at);
        }
    }

    /**
     * Reads {@code content} from {@code in} front to back in pieces of many sizes (single bytes,
     * and reads across buffer boundaries), with seeks back and ahead in between; then checks that
     * the end reads as the end, at and past it.
     */
    private static void readInPieces(SeekableInputStream in, byte[] content, Random random)
            throws IOException {
        int at = 0;
        in.seek(0);
        while (at < content.length) {
            if (random.nextInt(8) == 0) {
                // Somewhere else, then back.
                int elsewhere = random.nextInt(content.length);
                in.seek(elsewhere);
                assertThat(in.read()).isEqualTo(content[elsewhere] & 0xff);
                in.seek(at);
            }
            int kind = random.nextInt(3);
            if (kind == 0) {
                assertThat(in.read()).as("byte %d", at).isEqualTo(content[at] & 0xff);
                at++;
            } else {
                int max = kind == 1 ? 100 : 3 * BUFFER / 2;
                int n = Math.min(content.length - at, 1 + random.nextInt(max));
                byte[] read = new byte[n];
                in.readFully(read, 0, n);
                assertThat(read)
                        .as("bytes %d to %d", at, at + n)
                        .isEqualTo(Arrays.copyOfRange(content, at, at + n));
                at += n;
            }
            assertThat(in.getPos()).isEqualTo(at);
        }
        assertThat(in.read()).isEqualTo(-1);
        assertThat(in.read(new byte[10], 0, 10)).isEqualTo(-1);
        in.seek(content.length + 10_000L);
        assertThat(in.read()).isEqualTo(-1);
    }
}
