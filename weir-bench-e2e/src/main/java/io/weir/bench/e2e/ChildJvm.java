package io.weir.bench.e2e;

import io.weir.bench.e2e.job.BenchJob;
import io.weir.bench.e2e.job.JobSettings;
import io.weir.bench.e2e.job.Phase;
import io.weir.bench.e2e.job.RemoteWarehouse;
import io.weir.bench.e2e.job.SinkKind;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one benchmark run in a child JVM of its own ({@link BenchJob} on the sink's classpath) and
 * collects the figures it prints. The child's output goes to a log file; with {@code echo} its
 * standard error also goes to this process's.
 */
final class ChildJvm {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final BenchLibs libs;
    private final String heap;
    private final Path log4jConfig;
    private final Duration timeout;
    private final boolean echo;

    /**
     * @param heap the child's {@code -Xmx}, e.g. {@code 6g}
     * @param log4jConfig the children's log4j 2 configuration
     * @param timeout how long a run may take before it is killed
     * @param echo whether the child's standard error goes to this process's too
     */
    ChildJvm(BenchLibs libs, String heap, Path log4jConfig, Duration timeout, boolean echo) {
        this.libs = libs;
        this.heap = heap;
        this.log4jConfig = log4jConfig;
        this.timeout = timeout;
        this.echo = echo;
    }

    /** The child's command line. */
    List<String> command(JobSettings settings) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.addAll(FlinkJvmOptions.ADD_OPENS);
        command.add("-Dlog4j.configurationFile=" + log4jConfig);
        command.add("-Djava.io.tmpdir=" + tmpDir(settings));
        command.add("-cp");
        command.add(
                libs.classpath(
                        settings.sink(),
                        settings.remote() != null
                                        && settings.remote().onS3()
                                        && settings.sink() == SinkKind.PAIMON
                                ? List.of("paimon-s3")
                                : List.of()));
        command.add(BenchJob.class.getName());
        command.addAll(settings.toArgs());
        return command;
    }

    /**
     * The child's temporary directory, in its run's directory, so that what Flink leaves there (the
     * RPC system's jar, 21 MB per JVM, is not deleted when a job's JVM exits) goes with the run.
     */
    static Path tmpDir(JobSettings settings) {
        return settings.dir().resolve("tmp");
    }

    /** Runs {@code settings} and returns what it measured; never throws for a failed run. */
    RunResult run(JobSettings settings, Path log) throws IOException, InterruptedException {
        List<String> command = command(settings);
        Files.createDirectories(tmpDir(settings));
        Files.createDirectories(log.getParent());
        Files.writeString(log, String.join(" ", command) + "\n\n");
        ProcessBuilder builder = new ProcessBuilder(command);
        if (settings.remote() != null) {
            // Credentials stay off the command line, which goes to the log.
            builder.environment().put(RemoteWarehouse.OPTIONS_ENV, settings.remote().optionsText());
        }
        builder.redirectError(
                echo
                        ? ProcessBuilder.Redirect.INHERIT
                        : ProcessBuilder.Redirect.appendTo(log.toFile()));
        Process process = builder.start();
        process.getOutputStream().close();
        AtomicBoolean timedOut = new AtomicBoolean();
        Thread watchdog = watchdog(process, timedOut);
        Map<Phase, PhaseFigures> phases = new EnumMap<>(Phase.class);
        JsonNode verification = null;
        String failure = null;
        try (BufferedReader out =
                        new BufferedReader(
                                new InputStreamReader(
                                        process.getInputStream(), StandardCharsets.UTF_8));
                Writer logOut =
                        Files.newBufferedWriter(
                                log, StandardCharsets.UTF_8, StandardOpenOption.APPEND)) {
            String line;
            while ((line = out.readLine()) != null) {
                logOut.write(line + "\n");
                logOut.flush();
                if (echo) {
                    System.err.println(line);
                }
                if (line.startsWith(BenchJob.PREFIX)) {
                    JsonNode json = JSON.readTree(line.substring(BenchJob.PREFIX.length()));
                    Phase phase = Phase.parse(json.path("phase").asText());
                    if (phase == Phase.VERIFY) {
                        verification = json;
                    } else {
                        phases.put(phase, PhaseFigures.of(json));
                    }
                }
            }
        }
        int exitCode = process.waitFor();
        watchdog.interrupt();
        if (exitCode != 0) {
            failure =
                    timedOut.get()
                            ? "child JVM killed after " + timeout + " (log: " + log + ")"
                            : "child JVM exited with " + exitCode + " (log: " + log + ")";
        } else if (!RunResult.stopped(phases.get(Phase.INGEST))
                && phases.size() + (verification == null ? 0 : 1) < settings.phases().size()) {
            // An ingestion stopped at its time limit ends the run early (BenchJob); others report
            // every phase.
            failure = "child JVM reported only " + phases.keySet() + " (log: " + log + ")";
        }
        return new RunResult(settings, phases, verification, failure);
    }

    /** The last lines of a log, for error messages. */
    static void printTail(Path log, int lines, PrintStream out) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            all.subList(Math.max(0, all.size() - lines), all.size()).forEach(out::println);
        } catch (IOException e) {
            out.println("(cannot read " + log + ": " + e.getMessage() + ")");
        }
    }

    private Thread watchdog(Process process, AtomicBoolean timedOut) {
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                                    timedOut.set(true);
                                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                                    process.destroyForcibly();
                                }
                            } catch (InterruptedException e) {
                                // the run ended
                            }
                        },
                        "weir-bench-watchdog");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
