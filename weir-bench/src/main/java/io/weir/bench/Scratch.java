package io.weir.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Scratch directories for benchmark files: under {@code /dev/shm} (tmpfs: the page cache, no device
 * I/O) when it is writable, else under {@code java.io.tmpdir}. {@code -Dweir.bench.dir=...}
 * overrides.
 */
public final class Scratch {
    private Scratch() {}

    public static Path newDirectory(String prefix) {
        try {
            String configured = System.getProperty("weir.bench.dir");
            Path root;
            if (configured != null) {
                root = Files.createDirectories(Path.of(configured));
            } else {
                Path shm = Path.of("/dev/shm");
                root =
                        Files.isDirectory(shm) && Files.isWritable(shm)
                                ? shm
                                : Path.of(System.getProperty("java.io.tmpdir"));
            }
            return Files.createTempDirectory(root, prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a directory and everything under it. */
    public static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
