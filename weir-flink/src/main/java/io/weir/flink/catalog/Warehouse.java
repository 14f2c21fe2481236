package io.weir.flink.catalog;

import io.weir.Tables;
import io.weir.flink.FileIOLoader;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.io.LocalFileIO;
import io.weir.options.StorageOptions;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;

/**
 * The layout of a catalog (the Hive and Paimon convention): database {@code db} is the directory
 * {@code <warehouse>/db.db}, and its table {@code t} lives at {@code <warehouse>/db.db/t}. A
 * directory there is a table if it holds Weir schemas ({@code _weir/schemas/}, docs/format.md).
 *
 * <p>It works on any {@link FileIO}. Object stores have no directories, so a database is marked by
 * an empty object {@code <warehouse>/db.db/.database}, written when it is created; a directory
 * without one that holds tables (written by an older Weir, or by hand) is a database too.
 */
final class Warehouse {
    private static final String DATABASE_SUFFIX = ".db";
    private static final String DATABASE_MARKER = ".database";
    private static final String SCHEMAS_DIR = "_weir/schemas";

    private final String root;
    private final StorageOptions storage;
    private final FileIO io;

    Warehouse(String location, StorageOptions storage) {
        this.root = normalize(location);
        this.storage = storage;
        this.io = FileIOs.forLocation(root, storage);
    }

    private static String normalize(String location) {
        if (FileIOs.isLocal(location)) {
            return LocalFileIO.toPath(location).toAbsolutePath().normalize().toString();
        }
        String trimmed = location;
        while (trimmed.endsWith("/") && !trimmed.endsWith("//")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }

    String root() {
        return root;
    }

    /** How tasks reach the tables of this warehouse. */
    FileIOLoader io(String location) {
        return FileIOLoader.of(location, storage);
    }

    StorageOptions storage() {
        return storage;
    }

    String database(String name) {
        return root + "/" + checkName(name, "database") + DATABASE_SUFFIX;
    }

    String table(ObjectPath path) {
        return database(path.getDatabaseName()) + "/" + checkName(path.getObjectName(), "table");
    }

    boolean isDatabase(String name) {
        String database = database(name);
        try {
            return io.exists(database + "/" + DATABASE_MARKER)
                    || !io.listDirectories(database).isEmpty();
        } catch (IOException e) {
            throw new CatalogException("Cannot look for database " + database, e);
        }
    }

    boolean isTable(String location) {
        try {
            return !io.list(location + "/" + SCHEMAS_DIR).isEmpty();
        } catch (IOException e) {
            throw new CatalogException("Cannot look for a table at " + location, e);
        }
    }

    List<String> databases() {
        return listDirectories(root).stream()
                .map(Warehouse::name)
                .filter(n -> n.endsWith(DATABASE_SUFFIX))
                .map(n -> n.substring(0, n.length() - DATABASE_SUFFIX.length()))
                .sorted()
                .toList();
    }

    List<String> tables(String database) {
        return listDirectories(database(database)).stream()
                .filter(this::isTable)
                .map(Warehouse::name)
                .sorted()
                .toList();
    }

    void createDatabase(String name) {
        String marker = database(name) + "/" + DATABASE_MARKER;
        try {
            io.writeIfAbsent(marker, new byte[0]);
        } catch (IOException e) {
            throw new CatalogException("Cannot create database " + database(name), e);
        }
    }

    /**
     * Renames a table directory; fails if the target exists.
     *
     * @throws ValidationException on file systems without an atomic rename (object stores)
     */
    void move(String from, String to) {
        try {
            io.renameDirectory(from, to);
        } catch (UnsupportedOperationException e) {
            throw new ValidationException(
                    "Cannot rename table "
                            + from
                            + ": the warehouse "
                            + root
                            + " is on a file system without an atomic rename (an object store)."
                            + " Create a new table and INSERT INTO it instead.",
                    e);
        } catch (FileAlreadyExistsException e) {
            throw new CatalogException("Cannot rename " + from + " to " + to + ": it exists", e);
        } catch (IOException e) {
            throw new CatalogException("Cannot rename " + from + " to " + to, e);
        }
    }

    /**
     * Deletes a table's files: only those its metadata knows and those named as Weir names data
     * files; foreign files stay (logged by {@link Tables#drop}).
     */
    void dropTable(String location) {
        try {
            Tables.drop(io(location).get(), location);
        } catch (java.io.UncheckedIOException e) {
            throw new CatalogException("Cannot drop table " + location, e);
        }
    }

    void deleteRecursively(String directory) {
        try {
            io.deleteRecursively(directory);
        } catch (IOException e) {
            throw new CatalogException("Cannot delete " + directory, e);
        }
    }

    private List<String> listDirectories(String directory) {
        try {
            return io.listDirectories(directory);
        } catch (IOException e) {
            throw new CatalogException("Cannot list " + directory, e);
        }
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** A name becomes a directory name, so it must not escape the warehouse. */
    static String checkName(String name, String what) {
        if (name.isBlank()
                || name.startsWith(".")
                || name.indexOf('/') >= 0
                || name.indexOf('\\') >= 0
                || name.indexOf('\0') >= 0) {
            throw new CatalogException(
                    "Invalid "
                            + what
                            + " name '"
                            + name
                            + "': a name must not be blank, start with '.' or contain '/' or '\\'");
        }
        return name;
    }
}
