package io.weir.cli;

import io.weir.CommitResult;
import io.weir.Table;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code weir rescale}: rewrites a table into another number of buckets in one commit
 * (docs/rescale.md). Writers of the table must be restarted afterwards.
 */
@Command(
        name = "rescale",
        description =
                "Rewrite a table into another number of buckets, in one commit. Running writers"
                        + " fail their next commit and must be restarted.")
public final class RescaleCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin TableMixin table;

    @Option(
            names = "--buckets",
            required = true,
            paramLabel = "N",
            description = "The new number of buckets (1 to 32768).")
    int buckets;

    @Override
    public Integer call() {
        return Errors.exitCode(spec, this::run);
    }

    private int run(PrintWriter out) {
        Table t = table.load();
        int before = t.options().bucket();
        CommitResult result = t.newRescale().buckets(buckets).commit();
        if (result == null) {
            out.printf(
                    "Table %s has %d buckets already: nothing to do%n", table.location(), buckets);
        } else {
            out.printf(
                    "Rescaled table %s from %d to %d buckets: commit %d%n",
                    table.location(), before, buckets, result.commit().id());
        }
        return 0;
    }
}
