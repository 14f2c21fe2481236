package io.weir.cli.sql;

import io.weir.cli.compat.FlinkInternals;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.DefaultExecutorServiceLoader;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.internal.StreamTableEnvironmentImpl;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.CatalogManager;
import org.apache.flink.table.catalog.CatalogStore;
import org.apache.flink.table.catalog.CatalogStoreHolder;
import org.apache.flink.table.catalog.FunctionCatalog;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.delegation.Executor;
import org.apache.flink.table.delegation.ExecutorFactory;
import org.apache.flink.table.delegation.Planner;
import org.apache.flink.table.delegation.StreamExecutorFactory;
import org.apache.flink.table.factories.CatalogStoreFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.factories.PlannerFactoryUtil;
import org.apache.flink.table.factories.TableFactoryUtil;
import org.apache.flink.table.module.ModuleManager;
import org.apache.flink.table.resource.ResourceManager;

import java.net.URL;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Flink SQL session in this JVM: catalogs, databases, temporary tables and views, functions and
 * modules live as long as the session, while its configuration can change between statements, the
 * runtime mode included.
 *
 * <p>A Flink {@code TableEnvironment} fixes its planner (streaming or batch) when it is created. As
 * Flink's SQL gateway does, the session therefore keeps the session state (catalog manager,
 * function catalog, module manager, resource manager) apart, and builds a {@code TableEnvironment}
 * over that state from the current configuration: after a {@code SET} or {@code RESET}, the next
 * statement gets a fresh one with the new planner and executor, over the same state.
 *
 * <p>Jobs run one after another on a mini cluster in this JVM ({@link EmbeddedCluster}). The REST
 * endpoint that a Flink mini cluster always starts is bound to the loopback interface on an
 * ephemeral port; there is no web UI (flink-runtime-web is not on the classpath). With {@code
 * execution.target = 'remote'} they are submitted instead to the running cluster at {@code
 * rest.address} and {@code rest.port}, through Flink's REST client; that cluster must have the Weir
 * connector jar in its {@code lib/} (or get it with {@code pipeline.jars}).
 */
public final class FlinkSession implements AutoCloseable {
    private static final String LOCAL = "local";
    private static final String REMOTE = "remote";

    private final Configuration initialConfig;
    private final Configuration config;
    private final ClassLoader classLoader;
    private final ResourceManager resourceManager;
    private final ModuleManager moduleManager;
    private final CatalogManager catalogManager;
    private final FunctionCatalog functionCatalog;

    private final EmbeddedCluster cluster = new EmbeddedCluster();

    private TableEnvironmentInternal tableEnv;

    /**
     * Opens a session.
     *
     * @param overrides configuration that replaces the defaults of an embedded session (the
     *     statements' {@code SET} can still change it)
     */
    public FlinkSession(Map<String, String> overrides) {
        Configuration defaults = new Configuration();
        defaults.setString(ExecutionOptions.RUNTIME_MODE.key(), "streaming");
        defaults.set(DeploymentOptions.TARGET, LOCAL);
        defaults.set(DeploymentOptions.ATTACHED, true);
        defaults.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        defaults.set(RestOptions.ADDRESS, "127.0.0.1");
        defaults.set(RestOptions.BIND_PORT, "0");
        // A failing statement fails the script instead of restarting its job forever (the
        // default with checkpointing on).
        defaults.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        defaults.addAll(Configuration.fromMap(overrides));
        checkRuntimeMode(defaults);
        checkTarget(defaults);
        this.initialConfig = defaults;
        this.config = new Configuration(defaults);

        this.resourceManager =
                ResourceManager.createResourceManager(
                        new URL[0], FlinkSession.class.getClassLoader(), config);
        this.classLoader = resourceManager.getUserClassLoader();
        this.moduleManager = new ModuleManager();
        EnvironmentSettings settings =
                EnvironmentSettings.newInstance().withConfiguration(config).build();
        CatalogStoreFactory storeFactory =
                FlinkInternals.openCatalogStoreFactory(config, classLoader);
        CatalogStore store = storeFactory.createCatalogStore();
        this.catalogManager =
                CatalogManager.newBuilder()
                        .classLoader(classLoader)
                        .config(config)
                        .defaultCatalog(
                                settings.getBuiltInCatalogName(),
                                new GenericInMemoryCatalog(
                                        settings.getBuiltInCatalogName(),
                                        settings.getBuiltInDatabaseName()))
                        .catalogModificationListeners(
                                TableFactoryUtil.findCatalogModificationListenerList(
                                        config, classLoader))
                        .catalogStoreHolder(
                                CatalogStoreHolder.newBuilder()
                                        .catalogStore(store)
                                        .factory(storeFactory)
                                        .config(config)
                                        .classloader(classLoader)
                                        .build())
                        .build();
        this.functionCatalog =
                new FunctionCatalog(config, resourceManager, catalogManager, moduleManager);
    }

    /** The table environment for the next statement, built from the current configuration. */
    public TableEnvironmentInternal tableEnvironment() {
        if (tableEnv == null) {
            tableEnv = newTableEnvironment();
        }
        return tableEnv;
    }

    public boolean isStreaming() {
        return config.get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.STREAMING;
    }

    /** {@code SET 'key' = 'value'}: takes effect from the next statement on. */
    public void set(String key, String value) {
        Configuration next = new Configuration(config);
        next.setString(key, value);
        checkRuntimeMode(next);
        checkTarget(next);
        config.setString(key, value);
        tableEnv = null;
    }

    /** {@code RESET 'key'}: back to the value the session started with (or unset). */
    public void reset(String key) {
        String initial = initialConfig.toMap().get(key);
        if (initial == null) {
            config.removeKey(key);
        } else {
            config.setString(key, initial);
        }
        tableEnv = null;
    }

    /** {@code RESET}: the whole configuration back to how the session started. */
    public void resetAll() {
        for (String key : List.copyOf(config.keySet())) {
            config.removeKey(key);
        }
        config.addAll(initialConfig);
        tableEnv = null;
    }

    /** The session's configuration, sorted by key. */
    public Map<String, String> configuration() {
        return new TreeMap<>(config.toMap());
    }

    private TableEnvironmentInternal newTableEnvironment() {
        Configuration current = new Configuration(config);
        StreamExecutionEnvironment env =
                new StreamExecutionEnvironment(
                        isRemote(current) ? new DefaultExecutorServiceLoader() : cluster,
                        current,
                        classLoader);
        ExecutorFactory factory =
                FactoryUtil.discoverFactory(
                        classLoader, ExecutorFactory.class, ExecutorFactory.DEFAULT_IDENTIFIER);
        if (!(factory instanceof StreamExecutorFactory streamFactory)) {
            throw new IllegalStateException(
                    "The Flink table planner's executor factory is not a StreamExecutorFactory: "
                            + factory.getClass().getName());
        }
        Executor executor = streamFactory.create(env);
        TableConfig tableConfig = TableConfig.getDefault();
        tableConfig.setRootConfiguration(executor.getConfiguration());
        tableConfig.addConfiguration(current);
        Planner planner =
                PlannerFactoryUtil.createPlanner(
                        executor,
                        tableConfig,
                        classLoader,
                        moduleManager,
                        catalogManager,
                        functionCatalog);
        return new StreamTableEnvironmentImpl(
                catalogManager,
                moduleManager,
                resourceManager,
                functionCatalog,
                tableConfig,
                env,
                planner,
                executor,
                isStreaming());
    }

    /** Whether jobs go to a running cluster at {@code rest.address}, {@code rest.port}. */
    private static boolean isRemote(Configuration config) {
        return REMOTE.equals(config.get(DeploymentOptions.TARGET));
    }

    /**
     * Jobs run on the embedded cluster ({@code local}) or on a running cluster ({@code remote},
     * through Flink's REST client); any other target (YARN, Kubernetes) is refused rather than
     * silently ignored.
     */
    private static void checkTarget(Configuration config) {
        String target = config.get(DeploymentOptions.TARGET);
        if (!LOCAL.equals(target) && !REMOTE.equals(target)) {
            throw new ValidationException(
                    "Unsupported value '"
                            + target
                            + "' for '"
                            + DeploymentOptions.TARGET.key()
                            + "': weir sql runs jobs on its embedded cluster ('local', the default)"
                            + " or on a running cluster ('remote', at 'rest.address' and"
                            + " 'rest.port')");
        }
    }

    private static void checkRuntimeMode(Configuration config) {
        String mode = config.toMap().get(ExecutionOptions.RUNTIME_MODE.key());
        if (mode == null) {
            return;
        }
        String m = mode.toLowerCase(Locale.ROOT);
        if (!m.equals("streaming") && !m.equals("batch")) {
            throw new ValidationException(
                    "Unsupported value '"
                            + mode
                            + "' for '"
                            + ExecutionOptions.RUNTIME_MODE.key()
                            + "': use 'streaming' or 'batch'");
        }
    }

    @Override
    public void close() throws Exception {
        try (cluster;
                resourceManager) {
            catalogManager.close();
        }
    }
}
