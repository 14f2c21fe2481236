package io.weir.flink.catalog;

import io.weir.io.LocalFileIO;

import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The directory layout of a catalog (the Hive and Paimon convention): database {@code db} is the
 * directory {@code <warehouse>/db.db}, and its table {@code t} lives at {@code
 * <warehouse>/db.db/t}. A directory there is a table if it holds Weir metadata ({@code _weir/},
 * docs/format.md).
 *
 * <p>Local file system only: databases are directories, which {@link io.weir.io.FileIO} does not
 * model (object stores have none).
 */
final class Warehouse {
    private static final String DATABASE_SUFFIX = ".db";
    private static final String METADATA_DIR = "_weir";

    private final Path root;

    Warehouse(String location) {
        this.root = LocalFileIO.toPath(location).toAbsolutePath().normalize();
    }

    Path root() {
        return root;
    }

    Path database(String name) {
        return root.resolve(checkName(name, "database") + DATABASE_SUFFIX);
    }

    Path table(ObjectPath path) {
        return database(path.getDatabaseName()).resolve(checkName(path.getObjectName(), "table"));
    }

    boolean isDatabase(String name) {
        return Files.isDirectory(database(name));
    }

    boolean isTable(Path directory) {
        return Files.isDirectory(directory.resolve(METADATA_DIR));
    }

    List<String> databases() {
        return list(root)
                .filter(p -> p.getFileName().toString().endsWith(DATABASE_SUFFIX))
                .map(p -> p.getFileName().toString())
                .map(n -> n.substring(0, n.length() - DATABASE_SUFFIX.length()))
                .sorted()
                .toList();
    }

    List<String> tables(String database) {
        return list(database(database))
                .filter(this::isTable)
                .map(p -> p.getFileName().toString())
                .sorted()
                .toList();
    }

    void createDirectory(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new CatalogException("Cannot create directory " + directory, e);
        }
    }

    /** Renames a table directory; fails if the target exists. */
    void move(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new CatalogException("Cannot rename " + from + " to " + to, e);
        }
    }

    void deleteRecursively(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            throw new CatalogException("Cannot delete " + directory, e);
        }
    }

    private static Stream<Path> list(Path directory) {
        if (!Files.isDirectory(directory)) {
            return Stream.empty();
        }
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.filter(Files::isDirectory).toList().stream();
        } catch (IOException e) {
            throw new CatalogException("Cannot list " + directory, e);
        }
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
