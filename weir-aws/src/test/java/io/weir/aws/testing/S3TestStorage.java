package io.weir.aws.testing;

import io.weir.options.StorageOptions;
import io.weir.testing.TestStorage;

import java.nio.file.Path;

/**
 * {@code -Dweir.test.storage=s3}: tables of the core's test suites live on {@link S3Server}, each
 * under a fresh prefix, {@code s3://weir-test/<unique>/<name>}.
 */
public final class S3TestStorage extends TestStorage {
    private final S3Server server;

    private S3TestStorage(S3Server server) {
        this.server = server;
    }

    /** Registered in META-INF/services as a {@link TestStorage.Factory}. */
    public static final class Factory implements TestStorage.Factory {
        @Override
        public String name() {
            return "s3";
        }

        @Override
        public TestStorage start() {
            return new S3TestStorage(S3Server.get());
        }
    }

    @Override
    public String name() {
        return "s3";
    }

    @Override
    public String location(Path localDir, String name) {
        return "s3://" + S3Server.BUCKET + "/" + unique() + "/" + name;
    }

    @Override
    public StorageOptions options() {
        return server.options();
    }
}
