package io.weir.flink.packaging;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classpath of a Flink 1.20 JVM with Weir "dropped into lib/", for the integration tests that
 * start separate Flink JVMs ({@link ConnectorJarIT}, the failover soak): Flink's own jars as Maven
 * resolved them for this module's tests (the same artifacts flink-dist bundles), without anything
 * the connector jar bundles, plus the connector jar. Integration tests run after {@code package},
 * so the connector jar is built; failsafe passes its path as {@code weir.connector.jar}.
 */
public final class FlinkDistribution {
    /**
     * Libraries that flink-dist contains itself, unrelocated: they stay on the classpath even
     * though the connector jar bundles (relocated) copies of them, as in a distribution.
     */
    private static final List<String> FLINK_DIST_SHIPS =
            List.of("/org/apache/commons/commons-lang3/", "/commons-collections/", "/commons-io/");

    private FlinkDistribution() {}

    /** The connector jar that failsafe names. */
    public static Path connectorJar() {
        Path jar = Path.of(System.getProperty("weir.connector.jar"));
        assertThat(jar).as("built by the shade plugin in package").isRegularFile();
        return jar;
    }

    /**
     * Flink's jars: the module's Maven test classpath ({@code target/test.classpath}) without this
     * project's classes, without test tools, and without the runtime dependencies of weir-flink
     * that the connector jar bundles (relocated or not; Maven lists them in {@code
     * target/runtime.classpath}). What Flink itself brings stays, as in a Flink distribution
     * (lz4-java, for example, which Flink's batch shuffle uses).
     */
    public static List<String> jars(Path connectorJar) throws IOException {
        Set<String> bundled = new TreeSet<>();
        try (JarFile jar = new JarFile(connectorJar.toFile())) {
            jar.stream().map(JarEntry::getName).forEach(bundled::add);
        }
        // The module's Maven test classpath, not this JVM's: failsafe adds the MiniDFSCluster's
        // libraries to this JVM only (the POM's additionalClasspathDependencies).
        String testClasspath =
                Files.readString(Path.of(System.getProperty("weir.test.classpath"))).strip();
        Path project =
                Path.of(System.getProperty("weir.classes.dir")).getParent().getParent().getParent();
        Set<String> weirRuntime =
                new TreeSet<>(
                        List.of(
                                Files.readString(
                                                Path.of(
                                                        System.getProperty(
                                                                "weir.runtime.classpath")))
                                        .strip()
                                        .split(File.pathSeparator)));
        List<String> jars = new ArrayList<>();
        for (String element : testClasspath.split(File.pathSeparator)) {
            Path path = Path.of(element).toAbsolutePath();
            if (!element.endsWith(".jar")
                    || path.startsWith(project)
                    || element.contains("/io/weir/")
                    || Stream.of(
                                    "/org/junit/",
                                    "/org/assertj/",
                                    "/org/opentest4j/",
                                    "/org/apiguardian/",
                                    // Flink logs through log4j (log4j-slf4j-impl), as in its
                                    // distribution.
                                    "/org/slf4j/slf4j-simple/")
                            .anyMatch(element::contains)
                    || (weirRuntime.contains(element)
                            && isBundled(path, bundled)
                            && FLINK_DIST_SHIPS.stream().noneMatch(element::contains))) {
                continue;
            }
            jars.add(element);
        }
        assertThat(weirRuntime)
                .as("weir-flink's runtime dependencies")
                .anyMatch(j -> j.contains("/org/apache/parquet/"));
        assertThat(jars)
                .as("the child classpath has Flink")
                .anyMatch(j -> j.contains("flink-table-planner-loader"))
                .as("and none of the libraries that the connector jar bundles")
                .noneMatch(
                        j ->
                                Stream.of(
                                                "/com/fasterxml/jackson/",
                                                "/org/apache/parquet/",
                                                "/org/apache/hadoop/",
                                                "/at/yawk/lz4/",
                                                "/com/github/luben/",
                                                "/org/xerial/snappy/",
                                                "/com/fasterxml/woodstox/")
                                        .anyMatch(j::contains));
        return jars;
    }

    /** Whether the connector jar holds this jar's classes (any one is enough to tell). */
    private static boolean isBundled(Path jarPath, Set<String> connectorEntries)
            throws IOException {
        try (JarFile jar = new JarFile(jarPath.toFile())) {
            return jar.stream()
                    .map(JarEntry::getName)
                    .filter(
                            n ->
                                    n.endsWith(".class")
                                            && !n.startsWith("META-INF/")
                                            && !n.equals("module-info.class"))
                    .limit(20)
                    .anyMatch(
                            n ->
                                    connectorEntries.contains(n)
                                            || connectorEntries.contains("io/weir/shaded/" + n)
                                            || connectorEntries.contains("io/weir/" + n));
        }
    }

    /**
     * Copies the class files of a self-contained test class (and its nested classes) alone, not the
     * rest of weir-flink's unshaded test classes, into {@code target}: a classpath entry for a JVM
     * that must get Weir from the connector jar only.
     */
    public static void copyClasses(Class<?> cls, Path target) throws IOException {
        String pkg = cls.getPackageName().replace('.', '/');
        Path from = Path.of(System.getProperty("weir.test.classes.dir")).resolve(pkg);
        Path to = Files.createDirectories(target.resolve(pkg));
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.equals(cls.getSimpleName() + ".class")
                        || name.startsWith(cls.getSimpleName() + "$")) {
                    Files.copy(f, to.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
