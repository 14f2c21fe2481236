package io.weir.testing;

import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code @TempDir(factory = ShmTempDirFactory.class)}: a temporary directory in memory ({@code
 * /dev/shm}) where available, for tests that commit hundreds of times: every commit syncs its files
 * to disk, which on a shared machine costs far more than the work under test.
 */
public final class ShmTempDirFactory implements TempDirFactory {
    private static final Path SHM = Path.of("/dev/shm");

    @Override
    public Path createTempDirectory(
            AnnotatedElementContext elementContext, ExtensionContext extensionContext)
            throws IOException {
        if (Files.isDirectory(SHM) && Files.isWritable(SHM)) {
            return Files.createTempDirectory(SHM, "weir-test-");
        }
        return Files.createTempDirectory("weir-test-");
    }
}
