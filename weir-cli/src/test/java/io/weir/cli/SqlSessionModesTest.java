package io.weir.cli;

import io.weir.cli.SqlCommandTest.Run;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code weir sql} beyond scripts: the interactive mode, {@code --help} on every subcommand, and
 * where jobs run ({@code execution.target}).
 */
class SqlSessionModesTest {
    private final InputStream stdin = System.in;

    @AfterEach
    void restoreStdin() {
        System.setIn(stdin);
    }

    @Test
    void interactiveModeRunsEachStatementWhenItEndsAndGoesOnAfterAFailure() {
        System.setIn(
                new ByteArrayInputStream(
                        String.join(
                                        "\n",
                                        "SET 'execution.runtime-mode' = 'batch';",
                                        "SELECT 1 AS",
                                        "  a;  SELECT nope;",
                                        "HELP;",
                                        "-- a comment; not a statement",
                                        "SELECT 'x;y' AS",
                                        "  b;",
                                        "QUIT;",
                                        "SELECT 3 AS c;")
                                .getBytes(StandardCharsets.UTF_8)));

        Run run = SqlCommandTest.run("sql", "--interactive", "--format", "csv");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(SqlCommand.FAILED);
        assertThat(run.out())
                .as("no prompts: standard input is not a terminal")
                .startsWith("a\n1\n")
                .contains("Statements end with ';' and run as soon as it is typed")
                .endsWith("b\nx;y\n")
                .doesNotContain("Flink SQL>")
                .doesNotContain("c\n3");
        assertThat(run.err())
                .contains("[ERROR] Statement 3 (line 3) failed: SELECT nope")
                .contains("Column 'nope' not found");
    }

    @Test
    void theEndOfInputEndsTheLastStatement() {
        System.setIn(
                new ByteArrayInputStream(
                        "SET 'execution.runtime-mode' = 'batch';\nSELECT 7 AS n"
                                .getBytes(StandardCharsets.UTF_8)));
        Run run = SqlCommandTest.run("sql", "-i", "--format", "csv");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("n\n7\n");
    }

    @Test
    void everySubcommandHasHelp() {
        for (String command :
                List.of("quickstart", "sql", "compact", "clean", "doctor", "rescale")) {
            Run help = SqlCommandTest.run(command, "--help");
            assertThat(help.exitCode()).as(command).isZero();
            assertThat(help.out()).as(command).startsWith("Usage: weir " + command);
            assertThat(help.out()).as(command).contains("-h, --help");
        }
        assertThat(SqlCommandTest.run("sql", "--help").out())
                .contains("-i, --interactive")
                .contains("-Dexecution.target=remote");
    }

    @Test
    void aRemoteTargetRunsTheJobsOnThatCluster() throws Exception {
        Configuration config = new Configuration();
        config.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        config.set(RestOptions.ADDRESS, "127.0.0.1");
        config.set(RestOptions.BIND_PORT, "0");
        try (MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(config)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(2)
                                .build())) {
            cluster.start();
            URI rest = cluster.getRestAddress().get();

            Run run =
                    SqlCommandTest.run(
                            "sql",
                            "-Dexecution.target=remote",
                            "-Drest.address=" + rest.getHost(),
                            "-Drest.port=" + rest.getPort(),
                            "-Dexecution.runtime-mode=batch",
                            "--format",
                            "csv",
                            "-e",
                            "SELECT x * 2 AS y FROM (VALUES (21)) AS t(x)");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).isEqualTo("y\n42\n");
            Collection<JobStatusMessage> jobs = cluster.listJobs().get();
            assertThat(jobs).as("the query ran on the remote cluster").hasSize(1);
            assertThat(jobs.iterator().next().getJobState().isGloballyTerminalState()).isTrue();
        }
    }

    @Test
    void otherTargetsAreRefused() {
        Run run = SqlCommandTest.run("sql", "-Dexecution.target=yarn-per-job", "-e", "SELECT 1");
        assertThat(run.exitCode()).isEqualTo(SqlCommand.FAILED);
        assertThat(run.err())
                .contains(
                        "Unsupported value 'yarn-per-job' for 'execution.target': weir sql runs"
                                + " jobs on its embedded cluster ('local', the default) or on a"
                                + " running cluster ('remote', at 'rest.address' and"
                                + " 'rest.port')");
        Run later =
                SqlCommandTest.run("sql", "-e", "SET 'execution.target' = 'kubernetes-session'");
        assertThat(later.exitCode()).isEqualTo(SqlCommand.FAILED);
        assertThat(later.err()).contains("Unsupported value 'kubernetes-session'");
    }
}
