package io.weir.cli;

import io.weir.Snapshot;
import io.weir.Table;
import io.weir.Tables;
import io.weir.commit.MetadataDiagnosis;
import io.weir.io.FileIO;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code weir doctor}: reads every metadata file of a table and reports the damaged and missing
 * ones; with {@code --rollback-to N}, repairs a table whose newest commits are damaged or missing
 * by committing a rollback to snapshot N (docs/table-services.md, "Damaged metadata").
 */
@Command(
        name = "doctor",
        description =
                "Check a table's metadata files and report the damaged or missing ones; with"
                        + " --rollback-to, repair the table by committing a rollback to an intact"
                        + " snapshot (nothing is deleted).")
public final class DoctorCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin TableMixin table;

    @Option(
            names = "--rollback-to",
            paramLabel = "N",
            description =
                    "Commit a rollback to snapshot N: the table's files become those of N again,"
                            + " in a new commit. Repairs a table whose newest commit files are"
                            + " damaged or missing.")
    Long rollbackTo;

    @Override
    public Integer call() {
        return Errors.exitCode(spec, this::run);
    }

    private int run(PrintWriter out) {
        FileIO io = table.io();
        if (rollbackTo != null) {
            Table t = Tables.load(io, table.location());
            Snapshot s = t.rollbackTo(rollbackTo);
            out.printf(
                    "Rolled back table %s to snapshot %d: commit %d (%d files)%n",
                    table.location(), rollbackTo, s.id(), s.files().size());
        }
        MetadataDiagnosis.Report report = MetadataDiagnosis.run(io, table.location());
        for (String problem : report.problems()) {
            out.println("problem: " + problem);
        }
        if (report.latestCommit() < 0) {
            out.printf("Table %s does not load: see the problems above%n", table.location());
            return 2;
        }
        out.printf(
                "Latest commit: %d (%s)%n",
                report.latestCommit(), report.latestReadable() ? "readable" : "cannot be read");
        out.printf("Readable snapshots (newest first): %s%n", report.readable());
        if (!report.latestReadable()) {
            out.printf(
                    "Repair: weir doctor --table %s --rollback-to %s%n",
                    table.location(), report.readable().isEmpty() ? "N" : report.readable().get(0));
            return 2;
        }
        out.println(
                report.problems().isEmpty()
                        ? "OK: every metadata file reads"
                        : "The table is usable; the problems above are worked around");
        return report.problems().isEmpty() ? 0 : 1;
    }
}
