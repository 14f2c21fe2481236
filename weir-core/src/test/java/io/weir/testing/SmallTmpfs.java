package io.weir.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real, small file system (Linux tmpfs) mounted for a test, to fill until writes fail with "No
 * space left on device". Mounting needs root (or CAP_SYS_ADMIN); where it is not permitted, {@link
 * #mount} skips the test, saying why. Nothing here simulates a full disk.
 */
public final class SmallTmpfs implements AutoCloseable {
    private final Path dir;

    private SmallTmpfs(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code megabytes} on a new directory under {@code parent}. */
    public static SmallTmpfs mount(Path parent, int megabytes) throws IOException {
        Path dir = Files.createDirectories(parent.resolve("tmpfs"));
        String result =
                run(
                        "mount",
                        "-t",
                        "tmpfs",
                        "-o",
                        "size=" + megabytes + "m",
                        "tmpfs",
                        dir.toString());
        // CI (.ci/run sets WEIR_REQUIRE_TMPFS) must run the full-disk tests: there a refused mount
        // fails them; elsewhere it skips them.
        if (System.getenv("WEIR_REQUIRE_TMPFS") != null && result != null) {
            throw new IllegalStateException(
                    "WEIR_REQUIRE_TMPFS is set but a tmpfs cannot be mounted: " + result);
        }
        assumeTrue(
                result == null,
                () -> "Skipped: this machine does not let the test mount a tmpfs: " + result);
        return new SmallTmpfs(dir);
    }

    public Path dir() {
        return dir;
    }

    /**
     * Fills the file system with a ballast file until a write fails for lack of space, and returns
     * it; delete it to free the space again.
     */
    public Path fill() throws IOException {
        Path ballast = dir.resolve("ballast");
        byte[] chunk = new byte[64 << 10];
        try (OutputStream out = Files.newOutputStream(ballast)) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
                throw e;
            }
        }
        // Also the last few bytes (writes of a 64 KiB chunk fail while less is free).
        try (OutputStream out = Files.newOutputStream(dir.resolve("ballast-tail"))) {
            while (true) {
                out.write(0);
                out.flush();
            }
        } catch (IOException e) {
            // full
        }
        return ballast;
    }

    /** Frees what {@link #fill} took. */
    public void free() throws IOException {
        Files.deleteIfExists(dir.resolve("ballast"));
        Files.deleteIfExists(dir.resolve("ballast-tail"));
    }

    @Override
    public void close() throws IOException {
        String result = run("umount", dir.toString());
        if (result != null) {
            throw new IOException("Cannot unmount " + dir + ": " + result);
        }
    }

    /** Runs a command; null if it succeeded, else its output or why it could not run. */
    private static String run(String... command) {
        try {
            Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return String.join(" ", command) + " did not finish";
            }
            return p.exitValue() == 0 ? null : String.join(" ", command) + ": " + out;
        } catch (IOException e) {
            return String.join(" ", command) + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
