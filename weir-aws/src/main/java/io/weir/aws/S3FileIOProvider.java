package io.weir.aws;

import io.weir.io.FileIO;
import io.weir.io.FileIOProvider;
import io.weir.options.StorageOptions;

import java.util.Set;

/** {@code s3://} and {@code s3a://} locations: {@link S3FileIO}. */
public final class S3FileIOProvider implements FileIOProvider {
    @Override
    public Set<String> schemes() {
        return Set.of("s3", "s3a");
    }

    @Override
    public FileIO create(StorageOptions options) {
        return new S3FileIO(options);
    }
}
