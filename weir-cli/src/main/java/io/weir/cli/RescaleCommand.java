package io.weir.cli;

import io.weir.CommitResult;
import io.weir.Rescale;
import io.weir.Table;
import io.weir.exceptions.ValidationException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code weir rescale}: rewrites a table, or one partition of it, into another number of buckets in
 * one commit (docs/rescale.md). Writers whose layout differs fail their next commit and must be
 * restarted.
 */
@Command(
        name = "rescale",
        description =
                "Rewrite a table, or one partition of it, into another number of buckets, in one"
                        + " commit. Running writers of the old layout fail their next commit and"
                        + " must be restarted.")
public final class RescaleCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin TableMixin table;

    @Option(
            names = "--buckets",
            paramLabel = "N",
            description =
                    "The new number of buckets (1 to 32768). Required without --partition; with"
                            + " it, by default the table's bucket option.")
    Integer buckets;

    @Option(
            names = "--partition",
            paramLabel = "k=v[,k2=v2]",
            description =
                    "Rescale only this partition (a value for every partition key, e.g."
                            + " dt=2024-01-01); the table's bucket option stays.")
    String partition;

    @Override
    public Integer call() {
        return Errors.exitCode(spec, this::run);
    }

    private int run(PrintWriter out) {
        ValidationException.check(
                buckets != null || partition != null,
                "Cannot rescale table %s: missing option --buckets, the new number of buckets (it"
                        + " may be left out only with --partition, which then takes the table's"
                        + " bucket option)",
                table.location());
        Table t = table.load();
        Rescale rescale = t.newRescale();
        if (buckets != null) {
            rescale.buckets(buckets);
        }
        if (partition != null) {
            rescale.partition(partition);
        }
        CommitResult result = rescale.commit();
        int after = buckets != null ? buckets : t.options().bucket();
        String what =
                partition == null
                        ? "table " + table.location()
                        : "partition " + partition + " of table " + table.location();
        if (result == null) {
            out.printf("%s has %d buckets already: nothing to do%n", capitalized(what), after);
        } else {
            String change = result.commit().properties().get(Rescale.COMMIT_PROPERTY);
            out.printf(
                    "Rescaled %s from %s buckets: commit %d%n",
                    what, change.replace("->", "to"), result.commit().id());
        }
        return 0;
    }

    private static String capitalized(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
