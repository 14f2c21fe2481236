package io.weir.service;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.Table;
import io.weir.Tables;
import io.weir.commit.CommitLog;
import io.weir.exceptions.WeirException;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Deletes a table (DROP TABLE): only the files Weir wrote for it, never others that happen to be
 * under its location (docs/table-services.md, "Dropping a table"). Deleted are
 *
 * <ul>
 *   <li>every file under {@code _weir/} (metadata);
 *   <li>every data file the metadata references (the latest state and every commit file that can be
 *       read);
 *   <li>every file named as Weir names data files: {@code [k=v/...]bucket-<n>/log-<id>.wlog} or
 *       {@code [k=v/...]bucket-<n>/base-<id>.parquet}, with as many {@code k=v} directories as the
 *       table has partition keys (any number if the schema cannot be read): the outputs of failed
 *       writes, which no metadata references.
 * </ul>
 *
 * Every other file stays, and is named in the result and a log line; the location's directory is
 * removed only if nothing is left.
 */
public final class TableDeletion {
    private static final Logger LOG = LoggerFactory.getLogger(TableDeletion.class);
    private static final Pattern DATA_FILE =
            Pattern.compile(
                    "((?:[^/=]+=[^/]*/)*)bucket-[0-9]+/(?:log-[^/]+\\.wlog|base-[^/]+\\.parquet)");

    /**
     * @param deleted the files deleted
     * @param kept the files left in place because the table's metadata does not know them
     */
    public record Result(List<String> deleted, List<String> kept) {}

    private TableDeletion() {}

    public static Result delete(FileIO io, String location) {
        String loc = location;
        while (loc.length() > 1 && loc.endsWith("/")) {
            loc = loc.substring(0, loc.length() - 1);
        }
        String root = loc + "/";
        List<FileStatus> files;
        try {
            files = io.listRecursive(loc);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list table " + loc, e);
        }
        Set<String> referenced = new HashSet<>();
        int partitionKeys = -1;
        try {
            Table table = Tables.load(io, loc);
            partitionKeys = table.schema().partitionKeys().size();
            try {
                table.currentSnapshot().files().forEach(f -> referenced.add(f.path()));
            } catch (WeirException e) {
                LOG.warn(
                        "Dropping table {} whose latest state cannot be read: {}",
                        loc,
                        e.getMessage());
            }
            for (FileStatus s : io.list(root + CommitLog.METADATA_DIR + "/commits")) {
                try {
                    Commit c = commit(table, s.path());
                    if (c != null) {
                        c.added().stream().map(DataFile::path).forEach(referenced::add);
                        referenced.addAll(c.removed());
                    }
                } catch (WeirException e) {
                    LOG.warn(
                            "Dropping table {}: skipping a damaged commit: {}",
                            loc,
                            e.getMessage());
                }
            }
        } catch (WeirException e) {
            LOG.warn(
                    "Dropping table {} whose metadata cannot be read ({}): deleting its metadata"
                            + " and the files named as Weir names data files",
                    loc,
                    e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the commits of table " + loc, e);
        }
        List<String> delete = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        String metadata = root + CommitLog.METADATA_DIR + "/";
        for (FileStatus s : files) {
            String path = s.path();
            if (!path.startsWith(root)) {
                throw new IllegalStateException(
                        "Listing " + loc + " returned " + path + ", which is not under it");
            }
            String relative = path.substring(root.length());
            if (path.startsWith(metadata)
                    || referenced.contains(relative)
                    || isDataFileName(relative, partitionKeys)) {
                delete.add(path);
            } else if (!path.endsWith("/")) {
                kept.add(path);
            }
        }
        // Data first, metadata last: a drop that fails midway leaves a table that still loads.
        delete.sort((a, b) -> Boolean.compare(a.startsWith(metadata), b.startsWith(metadata)));
        try {
            io.deleteFiles(delete);
            if (kept.isEmpty()) {
                io.deleteRecursively(loc); // empty directories
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the files of table " + loc, e);
        }
        if (!kept.isEmpty()) {
            LOG.warn(
                    "Dropped table {} ({} files deleted) but left {} files that are not the"
                            + " table's in place, e.g. {}",
                    loc,
                    delete.size(),
                    kept.size(),
                    kept.subList(0, Math.min(5, kept.size())));
        } else {
            LOG.info("Dropped table {}: deleted {} files", loc, delete.size());
        }
        return new Result(delete, kept);
    }

    private static Commit commit(Table table, String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (!name.matches("[0-9]{20}\\.json")) {
            return null;
        }
        long id = Long.parseLong(name.substring(0, 20));
        try {
            return table.commit(id);
        } catch (io.weir.exceptions.SnapshotExpiredException e) {
            return null; // its files were expired with it or are referenced by later commits
        }
    }

    /** Whether a path relative to the table is named as Weir names data files. */
    static boolean isDataFileName(String relative, int partitionKeys) {
        var m = DATA_FILE.matcher(relative);
        if (!m.matches()) {
            return false;
        }
        if (partitionKeys < 0) {
            return true;
        }
        String dirs = m.group(1);
        int segments = dirs.isEmpty() ? 0 : dirs.split("/").length;
        return segments == partitionKeys;
    }
}
