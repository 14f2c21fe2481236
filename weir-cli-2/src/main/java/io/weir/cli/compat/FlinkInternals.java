package io.weir.cli.compat;

import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.table.factories.ApiFactoryUtil;
import org.apache.flink.table.factories.CatalogStoreFactory;

/**
 * The Flink internals that {@code weir sql}'s embedded session uses and that moved between Flink
 * 1.20 and Flink 2 (this is Flink 2's copy; weir-cli has Flink 1.20's).
 */
public final class FlinkInternals {
    private FlinkInternals() {}

    /** The catalog store factory the configuration names, opened. */
    public static CatalogStoreFactory openCatalogStoreFactory(
            Configuration config, ClassLoader classLoader) {
        CatalogStoreFactory factory =
                ApiFactoryUtil.findAndCreateCatalogStoreFactory(config, classLoader);
        factory.open(ApiFactoryUtil.buildCatalogStoreFactoryContext(config, classLoader));
        return factory;
    }

    /** The job graph of a pipeline, configured as Flink's own executors configure it. */
    public static JobGraph jobGraph(
            Pipeline pipeline, Configuration configuration, ClassLoader classLoader)
            throws Exception {
        return PipelineExecutorUtils.getStreamGraph(pipeline, configuration)
                .getJobGraph(classLoader);
    }
}
