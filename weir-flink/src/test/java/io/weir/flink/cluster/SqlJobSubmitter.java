package io.weir.flink.cluster;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The client JVM of {@link StandaloneFlinkCluster}, as {@code sql-client.sh -f script.sql} is: a
 * JVM whose classpath is the cluster's (Flink's jars and the connector jar) and this class only,
 * that reads the cluster's config.yaml ({@code FLINK_CONF_DIR}), runs a script's statements against
 * the session cluster and submits its {@code INSERT} asynchronously, printing {@code Job ID: ...}.
 * A script may restore from a checkpoint, as {@code -s} does ({@code
 * execution.state-recovery.path}).
 *
 * <p>Arguments: pairs of a script (statements separated by {@code ;} at the end of a line) and the
 * checkpoint to restore its job from, or {@code -}. One client submits several scripts, since
 * starting a client JVM and Flink's planner costs more than running a small job.
 */
public final class SqlJobSubmitter {
    private SqlJobSubmitter() {}

    public static void main(String[] args) throws Exception {
        for (int i = 0; i + 1 < args.length; i += 2) {
            Configuration conf =
                    GlobalConfiguration.loadConfiguration(System.getenv("FLINK_CONF_DIR"));
            conf.set(DeploymentOptions.TARGET, "remote");
            if (!args[i + 1].equals("-")) {
                conf.set(StateRecoveryOptions.SAVEPOINT_PATH, args[i + 1]);
            }
            TableEnvironment env =
                    TableEnvironment.create(
                            EnvironmentSettings.newInstance()
                                    .inStreamingMode()
                                    .withConfiguration(conf)
                                    .build());
            String script = Files.readString(Path.of(args[i]));
            for (String statement : script.split(";\\s*\n")) {
                if (statement.isBlank()) {
                    continue;
                }
                TableResult result = env.executeSql(statement);
                if (result.getJobClient().isPresent()) {
                    System.out.println(
                            "Job ID: " + args[i] + " " + result.getJobClient().get().getJobID());
                }
            }
        }
        System.out.println("SUBMITTED");
        System.exit(0);
    }
}
