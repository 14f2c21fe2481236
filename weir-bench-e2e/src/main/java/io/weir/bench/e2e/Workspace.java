package io.weir.bench.e2e;

import io.weir.bench.e2e.job.JobSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The working folder of a benchmark session: one folder per run for its tables (deleted after the
 * run unless kept), the runs' logs under {@code logs/}, and the children's log4j configuration.
 */
final class Workspace {
    /** Flink's and the connectors' logging: warnings and errors, to standard error. */
    private static final String LOG4J =
            """
            rootLogger.level = WARN
            rootLogger.appenderRef.console.ref = console
            appender.console.name = console
            appender.console.type = Console
            appender.console.target = SYSTEM_ERR
            appender.console.layout.type = PatternLayout
            appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n
            """;

    private final Path dir;
    private final boolean keepTables;
    private int runs;

    Workspace(Path dir, boolean keepTables) {
        this.dir = dir;
        this.keepTables = keepTables;
    }

    Path dir() {
        return dir;
    }

    /** Writes the children's log4j configuration (once) and returns its path. */
    Path log4jConfig() {
        Path config = dir.resolve("log4j2.properties");
        try {
            Files.createDirectories(dir);
            Files.writeString(config, LOG4J);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return config;
    }

    /** A new, empty folder for the next run: {@code <n>-<sink>-<schema>-<rows>}. */
    Path newRunDir(String sink, String schema, long rows) {
        runs++;
        Path run = dir.resolve(String.format("%03d-%s-%s-%d", runs, sink, schema, rows));
        delete(run);
        try {
            Files.createDirectories(run);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return run;
    }

    /** The log of the run in {@code runDir}. */
    Path logOf(Path runDir) {
        return dir.resolve("logs").resolve(runDir.getFileName() + ".log");
    }

    /** Deletes the run's tables, unless asked to keep them, and its temporary files. */
    void finished(JobSettings run) {
        delete(keepTables ? ChildJvm.tmpDir(run) : run.dir());
    }

    private static void delete(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
