package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.options.LogCodec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static io.weir.log.LogTestSupport.IO;
import static io.weir.log.LogTestSupport.TYPE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Files written one after another with shared {@link LogWriteBuffers} (as a writer's flush does)
 * are byte for byte the files written with buffers of their own, whatever bytes the previous file
 * left in the buffers (of rows that compress: which blocks a writer tries to compress carries over,
 * LogBlockCompressionTest); and the buffers serve one writer at a time.
 */
class LogWriteBuffersTest {
    @TempDir Path dir;

    @ParameterizedTest
    @EnumSource(LogCodec.class)
    void sharedBuffersWriteTheSameFiles(LogCodec codec) throws IOException {
        Random random = new Random(31);
        LogWriterOptions options = new LogWriterOptions(3, TYPE.size(), codec, 8 << 10);
        try (LogWriteBuffers buffers = new LogWriteBuffers(codec)) {
            // Large, then small, then empty, then large files: buffers grow and are reused.
            for (int count : new int[] {2000, 5, 0, 700, 1}) {
                List<BinaryRow> rows = LogTestSupport.randomRows(random, count, 20_000);
                String shared = dir.resolve("shared-" + count + ".wlog").toString();
                String own = dir.resolve("own-" + count + ".wlog").toString();
                LogFileWriter writer =
                        new LogFileWriter(IO.newOutputFile(shared), options, buffers);
                for (BinaryRow row : rows) {
                    writer.write(row);
                }
                LogFileInfo info = writer.close();
                LogTestSupport.write(own, options, rows);

                assertThat(info.recordCount()).isEqualTo(count);
                assertThat(Files.readAllBytes(Path.of(shared)))
                        .isEqualTo(Files.readAllBytes(Path.of(own)));
                assertThat(LogTestSupport.readAll(shared, TYPE.size())).isEqualTo(rows);
            }
        }
    }

    @Test
    void oneWriterAtATimeAndOfTheBuffersCodec() throws IOException {
        LogWriterOptions options = LogWriterOptions.of(0, TYPE.size(), LogCodec.LZ4);
        LogWriteBuffers buffers = new LogWriteBuffers(LogCodec.LZ4);
        LogFileWriter first =
                new LogFileWriter(IO.newOutputFile(dir.resolve("a").toString()), options, buffers);
        assertThatThrownBy(
                        () ->
                                new LogFileWriter(
                                        IO.newOutputFile(dir.resolve("b").toString()),
                                        options,
                                        buffers))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("in use");
        assertThat(Files.exists(dir.resolve("b"))).isFalse();
        first.abort();
        // Released by the abort: the next writer may take them.
        new LogFileWriter(IO.newOutputFile(dir.resolve("c").toString()), options, buffers).close();

        assertThatThrownBy(
                        () ->
                                new LogFileWriter(
                                        IO.newOutputFile(dir.resolve("d").toString()),
                                        LogWriterOptions.of(0, TYPE.size(), LogCodec.ZSTD),
                                        buffers))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ZSTD");
        buffers.close();
        assertThatThrownBy(
                        () ->
                                new LogFileWriter(
                                        IO.newOutputFile(dir.resolve("e").toString()),
                                        options,
                                        buffers))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }
}
