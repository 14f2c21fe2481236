package io.weir.io;

import io.weir.options.StorageOptions;

import java.util.Set;

/** Plain paths and {@code file:} URIs: {@link LocalFileIO}. */
public final class LocalFileIOProvider implements FileIOProvider {
    @Override
    public Set<String> schemes() {
        return Set.of(FileIOs.LOCAL_SCHEME);
    }

    @Override
    public FileIO create(StorageOptions options) {
        return new LocalFileIO();
    }
}
