package io.weir.commit;

import io.weir.exceptions.TableAlreadyExistsException;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Where a table may be created (docs/format.md §6.6, "Existence"). */
final class TableLocationCheck {
    private TableLocationCheck() {}

    /** How many foreign files an error names. */
    private static final int NAMED_FILES = 5;

    /**
     * A table is created only where nothing is, or where a table is (then the create-if-absent of
     * schema 0 fails as "table exists"): never over files Weir did not write, which a later DROP
     * TABLE or orphan removal would delete.
     */
    static void check(FileIO io, MetadataPaths paths, String schema0) {
        List<FileStatus> present;
        try {
            present = io.listRecursive(paths.location());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + paths.location(), e);
        }
        List<String> foreign = new ArrayList<>();
        int count = 0;
        for (FileStatus s : present) {
            if (s.path().equals(schema0)) {
                throw new TableAlreadyExistsException(
                        "Cannot create table at "
                                + paths.location()
                                + ": a table exists there ("
                                + schema0
                                + ")");
            }
            if (s.path().endsWith("/") || MetadataPaths.isTemporary(s.path())) {
                continue; // a directory marker; a concurrent creator's metadata write
            }
            count++;
            if (foreign.size() < NAMED_FILES) {
                foreign.add(s.path());
            }
        }
        if (count > 0) {
            throw new ValidationException(
                    "Cannot create table at "
                            + paths.location()
                            + ": the location holds "
                            + count
                            + " file(s) that are not a Weir table's, e.g. "
                            + String.join(", ", foreign)
                            + "; choose an empty location or move the files away");
        }
    }
}
