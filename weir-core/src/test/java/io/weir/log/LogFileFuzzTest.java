package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.exceptions.CorruptFileException;
import io.weir.options.LogCodec;
import io.weir.util.LittleEndian;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;

import static io.weir.log.LogTestSupport.TYPE;
import static io.weir.log.LogTestSupport.inMemoryFile;
import static io.weir.log.LogTestSupport.randomRows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coverage-guided fuzzing of the log file reader and the {@link BinaryRow} getters (Jazzer; see
 * docs/testing.md). The input's first byte chooses whether its checksums are made to match first:
 * with it set, the fuzzer gets past the CRCs to the block headers, the codecs, the record framing
 * and the rows' variable-length slots, as a faulty writer could frame them. Whatever the bytes,
 * reading the file and every field of every row either succeeds or fails with a {@link
 * CorruptFileException} naming the file; any other exception or error is a finding.
 */
class LogFileFuzzTest {
    private static final String PATH = "fuzzed.wlog";

    @FuzzTest(maxDuration = "3s")
    void readLogFile(byte[] input) throws IOException {
        if (input.length == 0) {
            return;
        }
        byte[] file = new byte[input.length - 1];
        System.arraycopy(input, 1, file, 0, file.length);
        if ((input[0] & 1) != 0) {
            fixChecksums(file);
        }
        try (LogFileReader reader = LogFileReader.open(inMemoryFile(PATH, file), TYPE)) {
            while (reader.next()) {
                BinaryRow row = reader.row();
                row.rowKind();
                for (int pos = 0; pos < TYPE.size(); pos++) {
                    row.get(pos, TYPE.type(pos));
                }
            }
        } catch (CorruptFileException e) {
            assertThat(e.path()).isEqualTo(PATH);
            assertThat(e.getMessage()).startsWith("Corrupt file " + PATH + " at offset ");
        }
    }

    /** Recomputes the CRC-32C of every block and of the footer that the framing lets us find. */
    private static void fixChecksums(byte[] file) {
        int footer = file.length - LogFormat.FOOTER_SIZE;
        int at = LogFormat.FILE_HEADER_SIZE;
        while (at >= 0 && at + LogFormat.BLOCK_PREFIX <= footer) {
            long end = at + 8L + Integer.toUnsignedLong(LittleEndian.getInt(file, at + 4)) + 4;
            if (end > footer || end < at + LogFormat.BLOCK_OVERHEAD) {
                break;
            }
            fixCrc(file, at, (int) end);
            at = (int) end;
        }
        if (footer >= LogFormat.FILE_HEADER_SIZE) {
            fixCrc(file, footer, file.length);
        }
    }

    private static void fixCrc(byte[] file, int start, int end) {
        CRC32C crc = new CRC32C();
        crc.update(file, start, end - 4 - start);
        LittleEndian.putInt(file, end - 4, (int) crc.getValue());
    }

    /**
     * Writes the seed corpus: small files of each codec, with and without rows, as written. Run
     * from weir-core with the test class path: {@code java io.weir.log.LogFileFuzzTest
     * src/test/resources/io/weir/log/LogFileFuzzTestInputs/readLogFile}.
     */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        Path tmp = Files.createTempDirectory("seeds");
        List<byte[]> seeds = new ArrayList<>();
        int n = 0;
        for (LogCodec codec : LogCodec.values()) {
            for (int rows : new int[] {0, 1, 7}) {
                String path = tmp.resolve("seed" + n++ + ".wlog").toString();
                LogTestSupport.write(
                        path,
                        new LogWriterOptions(1, TYPE.size(), codec, 256),
                        randomRows(new Random(rows), rows, 20));
                seeds.add(Files.readAllBytes(Path.of(path)));
            }
        }
        for (int i = 0; i < seeds.size(); i++) {
            byte[] seed = seeds.get(i);
            byte[] input = new byte[seed.length + 1];
            input[0] = 1; // checksums fixed: mutations reach the blocks
            System.arraycopy(seed, 0, input, 1, seed.length);
            Files.write(dir.resolve("seed-" + i), input);
        }
    }
}
