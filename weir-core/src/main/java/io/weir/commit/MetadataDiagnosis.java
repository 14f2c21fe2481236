package io.weir.commit;

import io.weir.exceptions.CorruptFileException;
import io.weir.exceptions.SnapshotExpiredException;
import io.weir.exceptions.WeirException;
import io.weir.io.FileIO;
import io.weir.io.FileStatus;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads every metadata file of a table and reports the damaged and missing ones ({@code weir
 * doctor}): schema files, commit files (and commits that the hint or a checkpoint proves but whose
 * files are missing), checkpoints, the LATEST hint, the expiry marker, reader leases and tags.
 * Changes nothing. A table whose latest commit cannot be read is repaired by a rollback ({@link
 * CommitLog#rollbackTo}) to one of the {@link Report#readable() readable snapshots} it lists.
 */
public final class MetadataDiagnosis {
    private static final int READABLE_SNAPSHOTS = 5;
    private static final int MAX_TRIED = 200;

    /**
     * What was found.
     *
     * @param location the table
     * @param problems one line per damaged or missing file: the file, the problem and its effect
     * @param latestCommit the latest commit id that exists or is proven; -1 if the table does not
     *     load at all
     * @param latestReadable whether the latest state can be read (the table is usable)
     * @param readable the latest few snapshots that can be read, newest first: rollback targets
     */
    public record Report(
            String location,
            List<String> problems,
            long latestCommit,
            boolean latestReadable,
            List<Long> readable) {}

    private MetadataDiagnosis() {}

    public static Report run(FileIO io, String location) {
        MetadataFiles files = new MetadataFiles(io, location);
        MetadataPaths paths = files.paths();
        List<String> problems = new ArrayList<>();
        for (FileStatus s : files.list(paths.metadataDir() + "/schemas")) {
            String name = s.path().substring(s.path().lastIndexOf('/') + 1);
            if (!name.endsWith(".json") || MetadataPaths.isTemporary(s.path())) {
                continue;
            }
            try {
                files.readSchema(Integer.parseInt(name.substring(0, name.length() - 5)));
            } catch (CorruptFileException e) {
                problems.add(e.getMessage() + " (the table does not load while it is damaged)");
            } catch (NumberFormatException e) {
                problems.add(s.path() + ": not a schema file name");
            }
        }
        for (long id : files.listedIds(paths.commitsDir())) {
            try {
                files.readCommit(id);
            } catch (CorruptFileException e) {
                problems.add(e.getMessage());
            }
        }
        for (long id : files.listedIds(paths.checkpointsDir())) {
            try {
                files.readCheckpoint(id);
            } catch (CorruptFileException e) {
                problems.add(e.getMessage() + " (skipped: loading uses an older checkpoint)");
            }
        }
        byte[] hint = files.read(paths.latestHint());
        if (hint != null && !new String(hint, StandardCharsets.UTF_8).matches("[0-9]{1,19}\n?")) {
            problems.add(
                    "Corrupt file "
                            + paths.latestHint()
                            + ": not a commit id (ignored: the commits are listed instead)");
        }
        try {
            files.readEarliestRetained();
        } catch (CorruptFileException e) {
            problems.add(e.getMessage());
        }

        for (FileStatus s : LeaseFiles.readers(io, location).damaged()) {
            problems.add(
                    "Corrupt file "
                            + s.path()
                            + ": not a reader lease (ignored: it protects nothing; snapshot"
                            + " expiry deletes it once older than orphan.older-than)");
        }
        for (FileStatus s : LeaseFiles.writers(io, location).damaged()) {
            problems.add(
                    "Corrupt file "
                            + s.path()
                            + ": not a writer lease (ignored: it protects nothing; orphan"
                            + " removal deletes it once older than orphan.older-than)");
        }
        TagFiles tags = new TagFiles(io, location);
        for (FileStatus s : files.list(paths.tagsDir())) {
            String name = s.path().substring(s.path().lastIndexOf('/') + 1);
            if (!name.endsWith(".json") || MetadataPaths.isTemporary(s.path())) {
                continue;
            }
            try {
                tags.read(name.substring(0, name.length() - 5));
            } catch (CorruptFileException | IllegalArgumentException e) {
                problems.add(
                        e.getMessage()
                                + " (a damaged tag: snapshot expiry and orphan removal refuse to"
                                + " run while it is there; delete the file if the tag is not"
                                + " needed)");
            }
        }
        FileCommitLog log;
        try {
            log = FileCommitLog.load(io, location);
        } catch (WeirException e) {
            if (!problems.contains(e.getMessage())) {
                problems.add(e.getMessage());
            }
            return new Report(files.location(), problems, -1, false, List.of());
        }
        CorruptFileException damage = log.damage();
        if (damage != null) {
            String line = damage.getMessage();
            int advice = line.indexOf(". Older snapshots can still be read");
            String problem = advice > 0 ? line.substring(0, advice) : line;
            if (problems.stream().noneMatch(p -> p.startsWith(problem))) {
                problems.add(problem);
            }
        }
        long head = log.head();
        List<Long> readable = new ArrayList<>();
        long earliest = log.earliestRetainedCommit();
        for (long id = damage == null ? head : head - 1;
                id >= earliest && id > head - MAX_TRIED && readable.size() < READABLE_SNAPSHOTS;
                id--) {
            try {
                log.state(id);
                readable.add(id);
            } catch (CorruptFileException | SnapshotExpiredException e) {
                // not a rollback target
            }
        }
        return new Report(files.location(), problems, head, damage == null, readable);
    }
}
