package io.weir;

import io.weir.commit.FileCommitLog;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.merge.MergeFunctions;
import io.weir.options.StorageOptions;
import io.weir.options.TableOptions;
import io.weir.service.TableDeletion;
import io.weir.table.TableImpl;

import java.time.Clock;
import java.util.Map;

/** Creates and loads Weir tables. */
public final class Tables {
    private Tables() {}

    /**
     * Creates a table: writes its first schema and options; commits nothing (its first write will
     * be commit 1).
     *
     * @throws io.weir.exceptions.TableAlreadyExistsException if a table exists at the location
     * @throws io.weir.exceptions.ValidationException for invalid options or schema
     */
    public static Table create(
            FileIO io, String location, Schema schema, Map<String, String> options) {
        return create(io, location, schema, options, Clock.systemUTC());
    }

    /**
     * Creates a table whose commit timestamps and table services (retention, leases, orphan
     * removal) follow {@code clock}: for simulations and tests.
     */
    public static Table create(
            FileIO io, String location, Schema schema, Map<String, String> options, Clock clock) {
        TableMetadata metadata;
        try {
            metadata = new TableMetadata(0, schema, TableOptions.of(options), clock.millis());
        } catch (IllegalArgumentException e) {
            throw new io.weir.exceptions.ValidationException(
                    "Cannot create table " + location + ": " + e.getMessage(), e);
        }
        MergeFunctions.validate(location, metadata);
        return new TableImpl(FileCommitLog.create(io, location, metadata, clock));
    }

    /**
     * Creates a table on the file system of its location ({@link FileIOs}); the storage options
     * ({@code s3.*}, {@code hadoop.*}) among {@code options} say how to reach it and are not
     * stored.
     */
    public static Table create(String location, Schema schema, Map<String, String> options) {
        return create(
                FileIOs.forLocation(location, StorageOptions.of(options)),
                location,
                schema,
                StorageOptions.withoutStorageOptions(options));
    }

    /**
     * Deletes a table (DROP TABLE): its metadata, the data files its metadata references and the
     * files named as Weir names data files; any other file under the location is left in place and
     * named in the result (docs/table-services.md, "Dropping a table").
     */
    public static TableDeletion.Result drop(FileIO io, String location) {
        return TableDeletion.delete(io, location);
    }

    /**
     * Loads the table at a location.
     *
     * @throws io.weir.exceptions.NoSuchTableException if there is none
     */
    public static Table load(FileIO io, String location) {
        return load(io, location, Clock.systemUTC());
    }

    /** Loads a table whose commit timestamps and table services follow {@code clock}. */
    public static Table load(FileIO io, String location, Clock clock) {
        return new TableImpl(FileCommitLog.load(io, location, clock));
    }

    /** Loads the table at a location on the file system of its scheme, with default options. */
    public static Table load(String location) {
        return load(FileIOs.forLocation(location), location);
    }

    /** Loads the table at a location on the file system of its scheme. */
    public static Table load(String location, StorageOptions storage) {
        return load(FileIOs.forLocation(location, storage), location);
    }
}
