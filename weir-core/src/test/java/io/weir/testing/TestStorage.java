package io.weir.testing;

import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.options.StorageOptions;

import java.nio.file.Path;
import java.util.ServiceLoader;
import java.util.UUID;

/**
 * Where a test's tables live. Local disk by default; the system property {@code weir.test.storage}
 * names another (for example {@code s3}), served by a {@link Factory} on the test classpath
 * (weir-aws's tests start a real S3-compatible server). The same test classes run against each:
 * weir-aws runs the core's model suites again with {@code -Dweir.test.storage=s3}.
 */
public abstract class TestStorage {
    public static final String PROPERTY = "weir.test.storage";
    private static volatile TestStorage current;

    /** Starts a storage named by {@link #PROPERTY}; found with {@link ServiceLoader}. */
    public interface Factory {
        String name();

        TestStorage start();
    }

    /** The storage that this JVM's tests use: started once, on first use. */
    public static TestStorage current() {
        TestStorage s = current;
        if (s == null) {
            synchronized (TestStorage.class) {
                s = current;
                if (s == null) {
                    s = start(System.getProperty(PROPERTY, "local"));
                    current = s;
                }
            }
        }
        return s;
    }

    private static TestStorage start(String name) {
        if (name.equals("local")) {
            return new Local();
        }
        for (Factory factory : ServiceLoader.load(Factory.class)) {
            if (factory.name().equals(name)) {
                return factory.start();
            }
        }
        throw new IllegalStateException(
                "-D"
                        + PROPERTY
                        + "="
                        + name
                        + ": no TestStorage.Factory of that name on the classpath");
    }

    public abstract String name();

    /**
     * A location of its own for a table or directory called {@code name}: under {@code localDir} (a
     * test's {@code @TempDir}) on local disk, under a fresh prefix elsewhere.
     */
    public abstract String location(Path localDir, String name);

    /** The storage options that reach this storage (none for local disk). */
    public abstract StorageOptions options();

    /** The file system of this storage's locations. */
    public FileIO io() {
        return FileIOs.forLocation(location(Path.of("/"), "probe"), options());
    }

    public boolean isLocal() {
        return false;
    }

    /** A unique name, for prefixes of locations that no {@code @TempDir} separates. */
    protected static String unique() {
        return UUID.randomUUID().toString().substring(0, 13);
    }

    private static final class Local extends TestStorage {
        @Override
        public String name() {
            return "local";
        }

        @Override
        public String location(Path localDir, String name) {
            return localDir.resolve(name).toString();
        }

        @Override
        public StorageOptions options() {
            return StorageOptions.none();
        }

        @Override
        public boolean isLocal() {
            return true;
        }
    }
}
