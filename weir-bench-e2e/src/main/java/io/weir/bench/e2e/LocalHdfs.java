package io.weir.bench.e2e;

import io.weir.bench.e2e.hdfs.MiniHdfsMain;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HDFS that {@code weir bench --warehouse hdfs} starts for itself: a JVM of its own running
 * {@link MiniHdfsMain} (Hadoop 3.3.6's MiniDFSCluster, a NameNode and one DataNode, on 127.0.0.1
 * with free ports) on the {@code hdfs-cluster} set of bench-lib, with its storage, its
 * configuration ({@code hadoop-metrics2.properties}: JMX values refreshed every 100 ms instead of
 * every 10 s, so that {@link NameNodeCounts} read right after a commit sees it; {@code
 * log4j.properties}: warnings only) and its log under the work directory. Stopped by {@link
 * #close()}, which closes the JVM's standard input: the cluster shuts down and the JVM exits.
 */
final class LocalHdfs implements AutoCloseable {
    private static final Pattern READY =
            Pattern.compile(Pattern.quote(MiniHdfsMain.READY) + "rpc=(\\d+) http=(\\d+)");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final Process process;
    private final Path dir;
    private final int rpcPort;
    private final int httpPort;

    private LocalHdfs(Process process, Path dir, int rpcPort, int httpPort) {
        this.process = process;
        this.dir = dir;
        this.rpcPort = rpcPort;
        this.httpPort = httpPort;
    }

    /** Starts the cluster with its files in a new directory under {@code parent}. */
    static LocalHdfs start(Path parent, String classpath) throws IOException, InterruptedException {
        Files.createDirectories(parent);
        Path dir = Files.createTempDirectory(parent, "hdfs-");
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Files.writeString(conf.resolve("hadoop-metrics2.properties"), "*.periodMillis=100\n");
        Files.writeString(
                conf.resolve("log4j.properties"),
                String.join(
                        "\n",
                        "log4j.rootLogger=WARN,stderr",
                        "log4j.appender.stderr=org.apache.log4j.ConsoleAppender",
                        "log4j.appender.stderr.Target=System.err",
                        "log4j.appender.stderr.layout=org.apache.log4j.PatternLayout",
                        "log4j.appender.stderr.layout.ConversionPattern=%d{ISO8601} %p %c: %m%n",
                        ""));
        Path log = parent.resolve("logs").resolve(dir.getFileName() + ".log");
        Files.createDirectories(log.getParent());
        List<String> command =
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx1g",
                        // the NameNode's web server (jersey 1) defines classes by reflection
                        "--add-opens=java.base/java.lang=ALL-UNNAMED",
                        "-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")),
                        "-cp",
                        conf + File.pathSeparator + classpath,
                        MiniHdfsMain.class.getName(),
                        dir.resolve("data").toString());
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        Process process = pb.start();
        Thread watchdog =
                new Thread(
                        () -> {
                            try {
                                Thread.sleep(START_TIMEOUT.toMillis());
                                process.destroyForcibly();
                            } catch (InterruptedException started) {
                                // up in time
                            }
                        },
                        "weir-bench-hdfs-start");
        watchdog.setDaemon(true);
        watchdog.start();
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            Matcher m = READY.matcher(line);
            if (m.matches()) {
                watchdog.interrupt();
                Thread drain =
                        new Thread(
                                () -> {
                                    try {
                                        while (out.readLine() != null) {
                                            // nothing else is printed on stdout
                                        }
                                    } catch (IOException ignored) {
                                        // the JVM ended
                                    }
                                },
                                "weir-bench-hdfs-out");
                drain.setDaemon(true);
                drain.start();
                return new LocalHdfs(
                        process, dir, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
            }
        }
        process.destroyForcibly();
        process.waitFor();
        throw new IOException(
                "The MiniDFSCluster did not start within "
                        + START_TIMEOUT.toMinutes()
                        + " min (exit code "
                        + process.exitValue()
                        + "); its log: "
                        + log);
    }

    int rpcPort() {
        return rpcPort;
    }

    /** {@code http://127.0.0.1:<port>}: the NameNode's web server ({@code /jmx}, WebHDFS). */
    String httpAddress() {
        return "http://127.0.0.1:" + httpPort;
    }

    /** Stops the cluster and deletes its files. */
    @Override
    public void close() throws IOException {
        process.getOutputStream().close();
        try {
            if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        LocalS3Server.delete(dir);
    }
}
