package io.weir.cli;

import io.weir.Table;
import io.weir.Tables;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.options.StorageOptions;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code --table PATH} and its storage options ({@code --conf}): the table a command works on. */
public final class TableMixin {
    @Option(
            names = "--table",
            required = true,
            paramLabel = "PATH",
            description = "The table: a local path, s3://bucket/path or hdfs://namenode/path.")
    String location;

    @Mixin StorageMixin storage;

    /** The table's location as given. */
    public String location() {
        return location;
    }

    /** The storage options given with {@code --conf}, validated. */
    public StorageOptions storage() {
        return storage.storage();
    }

    /** The file system of the table's location. */
    public FileIO io() {
        return FileIOs.forLocation(location, storage());
    }

    /** Loads the table. */
    public Table load() {
        return Tables.load(io(), location);
    }
}
