package io.weir.cli;

import io.weir.ExpirePartitions;
import io.weir.ExpirePartitionsResult;
import io.weir.ExpireSnapshots;
import io.weir.ExpireSnapshotsResult;
import io.weir.RemoveOrphanFiles;
import io.weir.RemoveOrphanFilesResult;
import io.weir.Table;
import io.weir.WriterLease;
import io.weir.WriterLeases;
import io.weir.options.ConfigOption;
import io.weir.partition.TimePartitioning;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code weir clean}: drops expired time partitions (one commit), expires old snapshots (by the
 * table's retention, or the given one for this run) and then removes orphan files, printing every
 * file it deletes; with {@code --dry-run} it prints what it would delete and changes nothing. Run
 * one at a time per table.
 */
@Command(
        name = "clean",
        description =
                "Drop expired time partitions, expire old snapshots and delete the files only they"
                        + " need, then delete orphan files of failed writes. Reader leases are"
                        + " honoured.")
public final class CleanCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin TableMixin table;

    @Option(
            names = "--retain-last",
            paramLabel = "N",
            description =
                    "Keep at least the N latest snapshots (instead of snapshot.num-retained.min).")
    Integer retainLast;

    @Option(
            names = "--older-than",
            paramLabel = "DURATION",
            description =
                    "Expire snapshots superseded longer ago than this, e.g. '30 min', '2 h', '7 d'"
                            + " (instead of snapshot.time-retained).")
    String olderThan;

    @Option(
            names = "--orphans-older-than",
            paramLabel = "DURATION",
            description =
                    "Delete orphan files last modified longer ago than this (instead of"
                            + " orphan.older-than; keep it above the longest write-to-commit time).")
    String orphansOlderThan;

    @Option(
            names = "--partitions-older-than",
            paramLabel = "DURATION",
            description =
                    "Drop time partitions whose period ended longer ago than this (instead of"
                            + " partition.expiration-time).")
    String partitionsOlderThan;

    @Option(names = "--dry-run", description = "Print what would be deleted; delete nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
        return Errors.exitCode(spec, this::run);
    }

    private int run(PrintWriter out) {
        long now = System.currentTimeMillis();
        Table t = table.load();
        String verb = dryRun ? "would delete" : "deleted";

        expirePartitions(t, now, out);

        ExpireSnapshots expiry = t.expireSnapshots();
        if (retainLast != null) {
            if (retainLast < 1) {
                throw new ParameterException(spec.commandLine(), "--retain-last must be >= 1");
            }
            expiry.retainLast(retainLast);
        }
        if (olderThan != null) {
            // Strictly before this clean began: its own partition drop commits at `now` or later
            // (within the same millisecond, with "0 s"), and the snapshot that drop supersedes
            // stays until the next clean, as the dry run, which drops nothing, reports.
            long age = duration("--older-than", olderThan).toMillis();
            expiry.expireOlderThan(now - Math.max(age, 1));
        }
        if (dryRun) {
            expiry.dryRun();
        }
        ExpireSnapshotsResult expired = expiry.commit();
        expired.deletedDataFiles().forEach(f -> out.printf("%s data file %s%n", verb, f));
        expired.deletedMetadataFiles().forEach(f -> out.printf("%s metadata file %s%n", verb, f));
        out.printf(
                "Snapshots: %s %d (earliest retained commit %d -> %d), %d data files, %d metadata"
                        + " files%n",
                dryRun ? "would expire" : "expired",
                expired.expiredSnapshots(),
                expired.previousEarliestRetained(),
                expired.earliestRetained(),
                expired.deletedDataFiles().size(),
                expired.deletedMetadataFiles().size());

        RemoveOrphanFiles orphans = t.removeOrphanFiles();
        if (orphansOlderThan != null) {
            Duration age = duration("--orphans-older-than", orphansOlderThan);
            if (age.compareTo(RemoveOrphanFiles.MIN_AGE) < 0) {
                throw new ParameterException(
                        spec.commandLine(),
                        "Invalid value '"
                                + orphansOlderThan
                                + "' for --orphans-older-than: must be at least 1 min, so that the"
                                + " files of writes still to be committed survive");
            }
            orphans.olderThan(now - age.toMillis());
        }
        if (dryRun) {
            orphans.dryRun();
        }
        RemoveOrphanFilesResult removed = orphans.execute();
        removed.orphanFiles().forEach(f -> out.printf("%s orphan file %s%n", verb, f));
        out.printf(
                "Orphans: %s %d files (%s)%n",
                verb, removed.orphanFiles().size(), Sizes.format(removed.orphanBytes()));
        if (removed.inFlightFiles() > 0) {
            out.printf(
                    "Orphans: kept %d unreferenced files of writes not committed yet (a live writer"
                            + " lease covers them)%n",
                    removed.inFlightFiles());
            // Which writers: a killed writer's lease keeps files until it ends (docs/cli.md).
            for (WriterLease lease : t.writerLeases().list()) {
                if (lease.isLive(now)) {
                    out.printf(
                            "  writer lease %s: files since %s, ends %s unless renewed%n",
                            lease.writerId(),
                            Instant.ofEpochMilli(
                                    lease.oldestFileMillis()
                                            - WriterLeases.CLOCK_ALLOWANCE.toMillis()),
                            Instant.ofEpochMilli(lease.expiresMillis()));
                }
            }
        }
        if (dryRun) {
            out.println("Dry run: nothing was changed");
        }
        return 0;
    }

    /** Drops expired time partitions first, so that the snapshot expiry can delete their files. */
    private void expirePartitions(Table t, long now, PrintWriter out) {
        TimePartitioning time = TimePartitioning.of(t.metadata());
        if (partitionsOlderThan == null && (time == null || time.expirationTime() == null)) {
            return;
        }
        ExpirePartitions expiry = t.expirePartitions();
        if (partitionsOlderThan != null) {
            expiry.olderThan(
                    now - duration("--partitions-older-than", partitionsOlderThan).toMillis());
        }
        if (dryRun) {
            expiry.dryRun();
        }
        ExpirePartitionsResult result = expiry.commit();
        List<String> keys = t.schema().partitionKeys();
        result.partitions()
                .forEach(
                        p ->
                                out.printf(
                                        "%s partition %s%n",
                                        dryRun ? "would drop" : "dropped", p.path(keys)));
        out.printf(
                "Partitions: %s %d (%d files, %d records)%s%n",
                dryRun ? "would drop" : "dropped",
                result.partitions().size(),
                result.files(),
                result.records(),
                result.commitId() >= 0 ? " in commit " + result.commitId() : "");
    }

    private Duration duration(String flag, String text) {
        try {
            return ConfigOption.key(flag)
                    .durationType()
                    .noDefaultValue()
                    .withDescription("")
                    .parse(text);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
