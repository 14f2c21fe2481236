package io.weir.hadoop;

import io.weir.hadoop.testing.HdfsCluster;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * weir-hadoop's declared dependencies are enough for an HDFS client, and hold each Hadoop class
 * once. The test cluster's JVM has every Hadoop library on its classpath, so it cannot show a
 * missing one; this runs {@link ClientProbe} in a JVM with exactly the module's runtime classpath
 * (target/runtime.classpath, written by the build) against the test cluster.
 */
class ClientClasspathTest {
    private static final Path RUNTIME_CLASSPATH = Path.of("target", "runtime.classpath");

    @Test
    void theRuntimeClasspathIsEnoughForAnHdfsClient() throws Exception {
        probe(HdfsCluster.get().newLocation("probe"));
    }

    @Test
    void theRuntimeClasspathIsEnoughForAWebHdfsClient() throws Exception {
        probe(HdfsCluster.get().webHdfsUri() + "/" + java.util.UUID.randomUUID() + "/probe");
    }

    private static void probe(String location) throws Exception {
        HdfsCluster cluster = HdfsCluster.get();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(
                String.join(
                        File.pathSeparator,
                        Path.of("target", "classes").toAbsolutePath().toString(),
                        probeClasses().toString(),
                        runtimeClasspath()));
        command.add(ClientProbe.class.getName());
        command.add(location);
        cluster.storageOptions().forEach((k, v) -> command.add(k + "=" + v));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        assertThat(output).as("the probe's output").contains("PROBE OK");
        assertThat(process.exitValue()).isZero();
    }

    @Test
    void noHadoopClassIsTwiceOnTheRuntimeClasspath() throws IOException {
        Map<String, String> seen = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (String entry : runtimeClasspath().split(File.pathSeparator)) {
            if (!entry.endsWith(".jar")) {
                continue;
            }
            try (JarFile jar = new JarFile(entry)) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    String name = e.nextElement().getName();
                    if (name.startsWith("org/apache/hadoop/") && name.endsWith(".class")) {
                        String previous = seen.putIfAbsent(name, entry);
                        if (previous != null && duplicates.size() < 10) {
                            duplicates.add(name + " in " + previous + " and " + entry);
                        }
                    }
                }
            }
        }
        assertThat(seen).isNotEmpty();
        assertThat(duplicates).isEmpty();
    }

    private static String runtimeClasspath() throws IOException {
        assertThat(RUNTIME_CLASSPATH)
                .as("written by the build (maven-dependency-plugin build-classpath)")
                .exists();
        return Files.readString(RUNTIME_CLASSPATH).trim();
    }

    /** Just the probe's class, without the test classpath's resources and fixtures. */
    private static Path probeClasses() throws IOException {
        Path dir = Path.of("target", "client-probe").toAbsolutePath();
        String name = ClientProbe.class.getName().replace('.', '/') + ".class";
        Path target = dir.resolve(name);
        Files.createDirectories(target.getParent());
        try (var in = ClientProbe.class.getClassLoader().getResourceAsStream(name)) {
            Files.write(target, in.readAllBytes());
        }
        return dir;
    }
}
