package io.weir.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * New files hold exactly the bytes written, whichever stream writes them: the direct one (whole
 * aligned chunks with {@code O_DIRECT}, the tail through the page cache) or the buffered one.
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
}
