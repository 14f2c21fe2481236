package io.weir.cli.sql;

import io.weir.cli.compat.FlinkInternals;

import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.ClientUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;

import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * One Flink mini cluster in this JVM that runs the jobs of a session one after another: started
 * with the first job (so a script of DDL alone starts none), with the session configuration of that
 * moment (cluster options such as memory sizes are read then), and restarted with more slots when a
 * job needs more than it has. Sharing it saves the start and stop of a cluster per job, and avoids
 * the race between a finished job's cluster shutting down and the client fetching the last query
 * results.
 */
final class EmbeddedCluster implements PipelineExecutorServiceLoader, AutoCloseable {
    private static final String NAME = "weir-embedded";

    private MiniCluster cluster;
    private int slots;

    @Override
    public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
        return new PipelineExecutorFactory() {
            @Override
            public String getName() {
                return NAME;
            }

            @Override
            public boolean isCompatibleWith(Configuration configuration) {
                return true;
            }

            @Override
            public PipelineExecutor getExecutor(Configuration configuration) {
                return EmbeddedCluster.this::execute;
            }
        };
    }

    @Override
    public Stream<String> getExecutorNames() {
        return Stream.of(NAME);
    }

    private CompletableFuture<JobClient> execute(
            Pipeline pipeline, Configuration configuration, ClassLoader classLoader)
            throws Exception {
        JobGraph jobGraph = FlinkInternals.jobGraph(pipeline, configuration, classLoader);
        MiniCluster cluster = clusterFor(configuration, jobGraph.getMaximumParallelism());
        return cluster.submitJob(jobGraph)
                .thenApply(
                        submitted -> {
                            try {
                                // Surfaces failures of the job's initialization right away.
                                ClientUtils.waitUntilJobInitializationFinished(
                                        () -> cluster.getJobStatus(submitted.getJobID()).get(),
                                        () -> cluster.requestJobResult(submitted.getJobID()).get(),
                                        classLoader);
                            } catch (Exception e) {
                                throw new java.util.concurrent.CompletionException(e);
                            }
                            return new MiniClusterJobClient(
                                    submitted.getJobID(),
                                    cluster,
                                    classLoader,
                                    MiniClusterJobClient.JobFinalizationBehavior.NOTHING);
                        });
    }

    private synchronized MiniCluster clusterFor(Configuration configuration, int jobParallelism)
            throws Exception {
        int needed =
                Math.max(
                        Math.max(
                                jobParallelism, configuration.get(CoreOptions.DEFAULT_PARALLELISM)),
                        configuration.getOptional(TaskManagerOptions.NUM_TASK_SLOTS).orElse(1));
        if (cluster != null && needed <= slots) {
            return cluster;
        }
        close();
        MiniCluster started =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(configuration)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(needed)
                                .setRpcServiceSharing(RpcServiceSharing.SHARED)
                                .build());
        started.start();
        cluster = started;
        slots = needed;
        return started;
    }

    @Override
    public synchronized void close() throws Exception {
        if (cluster != null) {
            MiniCluster c = cluster;
            cluster = null;
            c.close();
        }
    }
}
