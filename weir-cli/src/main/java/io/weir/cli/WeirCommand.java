package io.weir.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code weir} command. */
@Command(
        name = "weir",
        // Every subcommand inherits --help and --version.
        scope = CommandLine.ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        version = "weir 0.1.0-SNAPSHOT",
        description = "Weir: lake tables kept up to date from change streams.",
        // `weir bench` is dispatched by the weir script to module weir-bench-e2e (own build).
        footer = {
            "  bench       The end-to-end ingestion benchmark against Paimon and Hudi",
            "                (./weir bench --help, docs/benchmark.md)."
        },
        subcommands = {
            QuickStartCommand.class,
            SqlCommand.class,
            CompactCommand.class,
            CleanCommand.class,
            DoctorCommand.class,
            RescaleCommand.class
        })
public final class WeirCommand {
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line of {@code weir} with all its subcommands (tests set out and err). */
    public static CommandLine commandLine() {
        return new CommandLine(new WeirCommand());
    }
}
