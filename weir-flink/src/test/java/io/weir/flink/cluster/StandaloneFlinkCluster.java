package io.weir.flink.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A Flink standalone session cluster (the build's Flink: 1.20, or 2.3 in weir-flink-2) of separate
 * JVMs, started as Flink's scripts start one (shared/notes/flink-cluster.md): a JobManager ({@code
 * StandaloneSessionClusterEntrypoint}) and TaskManagers ({@code TaskManagerRunner}), each a process
 * of its own that a test can {@code kill -9}, with the JVM memory flags that Flink's {@code
 * BashJavaUtils} computes from the same config.yaml, and jobs submitted by a separate client JVM
 * ({@link SqlJobSubmitter}). Each TaskManager has the resource id {@code tm-N}, so the REST API's
 * task locations name the process.
 */
final class StandaloneFlinkCluster implements AutoCloseable {
    /** Flink's {@code env.java.opts.all} on Java 17 (what ./weir passes too). */
    static final List<String> JAVA_OPTS =
            List.of(
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final Path conf;
    private final Path logs;
    private final String classpath;
    private final int restPort;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, Process> taskManagers = new TreeMap<>();
    private Process jobManager;
    private int nextTaskManager;
    private List<String> jmParams;
    private List<String> tmParams;

    /**
     * Writes the cluster's conf/ under {@code dir}; {@code settings} are added to (or override) the
     * defaults: checkpoints every 2 s to {@code dir/checkpoints}, retained on cancellation.
     */
    StandaloneFlinkCluster(Path dir, List<String> classpath, Map<String, String> settings)
            throws IOException {
        this.dir = dir;
        this.conf = Files.createDirectories(dir.resolve("conf"));
        this.logs = Files.createDirectories(dir.resolve("log"));
        this.classpath = String.join(File.pathSeparator, classpath);
        this.restPort = freePort();
        Map<String, String> config = new LinkedHashMap<>();
        config.put("jobmanager.rpc.address", "localhost");
        config.put("jobmanager.bind-host", "localhost");
        config.put("jobmanager.rpc.port", Integer.toString(freePort()));
        config.put("taskmanager.bind-host", "localhost");
        config.put("taskmanager.host", "localhost");
        config.put("rest.address", "localhost");
        config.put("rest.bind-address", "localhost");
        config.put("rest.port", Integer.toString(restPort));
        config.put("jobmanager.memory.process.size", "768m");
        config.put("taskmanager.memory.process.size", "1280m");
        config.put("taskmanager.memory.managed.size", "64m");
        config.put("taskmanager.numberOfTaskSlots", "2");
        config.put("parallelism.default", "2");
        config.put("cluster.evenly-spread-out-slots", "true");
        config.put("execution.checkpointing.interval", "2s");
        config.put("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
        config.put(
                "execution.checkpointing.externalized-checkpoint-retention",
                "RETAIN_ON_CANCELLATION");
        config.put("restart-strategy.type", "fixed-delay");
        config.put("restart-strategy.fixed-delay.attempts", "1000");
        config.put("restart-strategy.fixed-delay.delay", "1s");
        config.put("heartbeat.interval", "1000");
        config.put("heartbeat.timeout", "5000");
        config.put("pekko.ask.timeout", "30s");
        config.putAll(settings);
        StringBuilder yaml = new StringBuilder();
        config.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
        Files.writeString(conf.resolve("config.yaml"), yaml);
        Files.writeString(
                conf.resolve("log4j.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = MainAppender",
                        "appender.main.name = MainAppender",
                        "appender.main.type = File",
                        "appender.main.append = true",
                        "appender.main.fileName = ${sys:log.file}",
                        "appender.main.layout.type = PatternLayout",
                        "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
                        "logger.pekko.name = org.apache.pekko",
                        "logger.pekko.level = WARN",
                        ""));
    }

    Path checkpointDir() {
        return dir.resolve("checkpoints");
    }

    Path confDir() {
        return conf;
    }

    String classpath() {
        return classpath;
    }

    int restPort() {
        return restPort;
    }

    /**
     * Starts the JobManager and {@code taskManagers} TaskManagers at once (TaskManagers retry
     * registering until the JobManager is up), and waits for the REST API.
     */
    void start(int taskManagers) throws Exception {
        var jm =
                java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> resourceParamsUnchecked("GET_JM_RESOURCE_PARAMS"));
        tmParams = resourceParams("GET_TM_RESOURCE_PARAMS");
        jmParams = jm.join();
        for (int i = 0; i < taskManagers; i++) {
            startTaskManager();
        }
        startJobManager();
    }

    void startJobManager() throws Exception {
        List<String> cmd = jvm(jmParams.get(0), "jobmanager");
        cmd.add("org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint");
        cmd.add("--configDir");
        cmd.add(conf.toString());
        cmd.addAll(split(jmParams.get(1)));
        jobManager = start(cmd, "jobmanager");
        waitFor(Duration.ofSeconds(90), "the JobManager's REST API", () -> get("/config") != null);
    }

    /** Stops the JobManager: {@code kill -9} if {@code kill}, else SIGTERM (as stop-cluster.sh). */
    void stopJobManager(boolean kill) throws InterruptedException {
        if (kill) {
            jobManager.destroyForcibly();
        } else {
            jobManager.destroy();
        }
        if (!jobManager.waitFor(60, TimeUnit.SECONDS)) {
            jobManager.destroyForcibly().waitFor();
        }
    }

    /** Starts a TaskManager and returns its resource id (tm-N). */
    String startTaskManager() throws Exception {
        if (tmParams == null) {
            tmParams = resourceParams("GET_TM_RESOURCE_PARAMS");
        }
        String id = "tm-" + ++nextTaskManager;
        List<String> cmd = jvm(tmParams.get(0), id);
        cmd.add("org.apache.flink.runtime.taskexecutor.TaskManagerRunner");
        cmd.add("--configDir");
        cmd.add(conf.toString());
        cmd.addAll(split(tmParams.get(1)));
        cmd.add("-D");
        cmd.add("taskmanager.resource-id=" + id);
        taskManagers.put(id, start(cmd, id));
        return id;
    }

    /** {@code kill -9} of a TaskManager. */
    void killTaskManager(String id) throws InterruptedException {
        Process p = taskManagers.remove(id);
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    List<String> taskManagers() {
        return new ArrayList<>(taskManagers.keySet());
    }

    /** Waits until the JobManager counts {@code count} registered TaskManagers. */
    void awaitTaskManagers(int count) throws Exception {
        waitFor(
                Duration.ofSeconds(120),
                count + " registered TaskManagers",
                () -> {
                    JsonNode tms = get("/taskmanagers");
                    return tms != null && tms.path("taskmanagers").size() == count;
                });
    }

    /** GET of a REST path; null if the JobManager does not answer (yet). */
    JsonNode get(String path) {
        try {
            HttpResponse<String> r =
                    http.send(
                            HttpRequest.newBuilder(
                                            URI.create("http://localhost:" + restPort + path))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A job's status (RUNNING, FINISHED, ...), or null if the JobManager does not know it. */
    String jobStatus(String jobId) {
        JsonNode job = get("/jobs/" + jobId);
        return job == null ? null : job.path("state").asText();
    }

    /**
     * Whether every task of the job is RUNNING (or FINISHED) on a live TaskManager: right after a
     * {@code kill -9} the JobManager may not have noticed yet, and still shows tasks running on the
     * dead one.
     */
    boolean allTasksRunning(String jobId) {
        JsonNode job = get("/jobs/" + jobId);
        if (job == null || !job.path("state").asText().equals("RUNNING")) {
            return false;
        }
        for (JsonNode v : job.path("vertices")) {
            JsonNode tasks = v.path("tasks");
            int ok = tasks.path("RUNNING").asInt() + tasks.path("FINISHED").asInt();
            if (ok != v.path("parallelism").asInt()) {
                return false;
            }
        }
        List<String> locations = taskManagersOf(jobId, "");
        return taskManagers.keySet().containsAll(locations);
    }

    /** The resource ids of the TaskManagers that run a subtask of a vertex whose name matches. */
    List<String> taskManagersOf(String jobId, String vertexNamePart) {
        List<String> ids = new ArrayList<>();
        JsonNode job = get("/jobs/" + jobId);
        if (job == null) {
            return ids;
        }
        for (JsonNode v : job.path("vertices")) {
            if (v.path("name").asText().contains(vertexNamePart)) {
                JsonNode tms =
                        get(
                                "/jobs/"
                                        + jobId
                                        + "/vertices/"
                                        + v.path("id").asText()
                                        + "/taskmanagers");
                if (tms != null) {
                    for (JsonNode tm : tms.path("taskmanagers")) {
                        ids.add(tm.path("taskmanager-id").asText());
                    }
                }
            }
        }
        return ids;
    }

    /** The number of completed checkpoints of a job, -1 if unknown. */
    long completedCheckpoints(String jobId) {
        JsonNode cp = get("/jobs/" + jobId + "/checkpoints");
        return cp == null ? -1 : cp.path("counts").path("completed").asLong();
    }

    /**
     * The latest retained checkpoint of a job in the checkpoint directory: the {@code chk-N} with
     * the greatest N that has its {@code _metadata} (what an operator passes to {@code -s}).
     */
    Path latestCheckpoint(String jobId) throws IOException {
        Path jobDir = checkpointDir().resolve(jobId);
        Path best = null;
        long bestN = -1;
        if (Files.isDirectory(jobDir)) {
            try (var s = Files.list(jobDir)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    String name = p.getFileName().toString();
                    if (name.startsWith("chk-") && Files.exists(p.resolve("_metadata"))) {
                        long n = Long.parseLong(name.substring(4));
                        if (n > bestN) {
                            bestN = n;
                            best = p;
                        }
                    }
                }
            }
        }
        return best;
    }

    Path logDir() {
        return logs;
    }

    @Override
    public void close() {
        for (Process p : taskManagers.values()) {
            p.destroyForcibly();
        }
        if (jobManager != null) {
            jobManager.destroyForcibly();
        }
        try {
            for (Process p : taskManagers.values()) {
                p.waitFor(30, TimeUnit.SECONDS);
            }
            if (jobManager != null) {
                jobManager.waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        taskManagers.clear();
    }

    interface Check {
        boolean ok() throws Exception;
    }

    static void waitFor(Duration timeout, String what, Check check) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!check.ok()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(200);
        }
    }

    private List<String> jvm(String jvmParams, String name) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaBin());
        cmd.addAll(split(jvmParams));
        cmd.addAll(JAVA_OPTS);
        cmd.add("-XX:+IgnoreUnrecognizedVMOptions");
        cmd.add("-Dlog.file=" + logs.resolve(name + ".log"));
        cmd.add("-Dlog4j.configuration=file:" + conf.resolve("log4j.properties"));
        cmd.add("-Dlog4j.configurationFile=file:" + conf.resolve("log4j.properties"));
        cmd.add("-classpath");
        cmd.add(classpath);
        return cmd;
    }

    private Process start(List<String> cmd, String name) throws IOException {
        File out = logs.resolve(name + ".out").toFile();
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(out))
                .start();
    }

    private List<String> resourceParamsUnchecked(String command) {
        try {
            return resourceParams(command);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** BashJavaUtils' two result lines: the JVM flags and the dynamic properties. */
    private List<String> resourceParams(String command) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaBin());
        cmd.add("-classpath");
        cmd.add(classpath);
        cmd.add("org.apache.flink.runtime.util.bash.BashJavaUtils");
        cmd.add(command);
        cmd.add("--configDir");
        cmd.add(conf.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("BashJavaUtils " + command + " failed:\n" + output);
        }
        List<String> results = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.startsWith(RESULT_PREFIX)) {
                results.add(line.substring(RESULT_PREFIX.length()).strip());
            }
        }
        if (results.size() < 2) {
            throw new IllegalStateException("BashJavaUtils " + command + " printed:\n" + output);
        }
        return results.subList(results.size() - 2, results.size());
    }

    private static List<String> split(String params) {
        List<String> out = new ArrayList<>();
        for (String s : params.strip().split("\\s+")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
