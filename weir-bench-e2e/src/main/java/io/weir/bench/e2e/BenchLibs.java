package io.weir.bench.e2e;

import io.weir.bench.e2e.job.SinkKind;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The jars of the child JVMs, as the build left them: {@code bench-lib/<set>/} folders under the
 * target folders of weir-bench-e2e (weir, weir-2, paimon, paimon-2, hudi, hadoop) and of its
 * flink-1.20, flink-1.17, flink-2.3 and hdfs-cluster modules, plus weir-bench-e2e's own jar (the
 * child's main class and the source).
 */
final class BenchLibs {
    private final Path benchJar;
    private final List<Path> roots;

    BenchLibs(Path benchJar, List<Path> roots) {
        this.benchJar = benchJar;
        this.roots = List.copyOf(roots);
    }

    /** The layout of a source tree built with {@code ./mvnw package -pl weir-bench-e2e -am}. */
    static BenchLibs inSourceTree(Path home) {
        Path module = home.resolve("weir-bench-e2e");
        return new BenchLibs(
                module.resolve("target/weir-bench-e2e.jar"),
                List.of(
                        module.resolve("target/bench-lib"),
                        module.resolve("flink-1.20/target/bench-lib"),
                        module.resolve("flink-1.17/target/bench-lib"),
                        module.resolve("flink-2.3/target/bench-lib"),
                        module.resolve("hdfs-cluster/target/bench-lib")));
    }

    /** The child's classpath for a sink: this module's jar, the connector's sets, Flink's set. */
    String classpath(SinkKind sink) {
        return classpath(sink, List.of());
    }

    /** The same, with {@code extraSets} (e.g. Paimon's S3 file system) before the sink's sets. */
    String classpath(SinkKind sink, List<String> extraSets) {
        List<String> sets = new ArrayList<>(extraSets);
        sets.addAll(sink.libs());
        return classpathOfSets(sets.toArray(new String[0]));
    }

    /** This module's jar and the jars of {@code sets} (e.g. the MiniDFSCluster's JVM). */
    String classpathOfSets(String... sets) {
        List<String> entries = new ArrayList<>();
        entries.add(existing(benchJar).toString());
        for (String set : sets) {
            for (Path jar : jars(set)) {
                entries.add(jar.toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** The jars of one set, sorted by name. */
    List<Path> jars(String set) {
        for (Path root : roots) {
            Path dir = root.resolve(set);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    List<Path> jars =
                            files.filter(f -> f.getFileName().toString().endsWith(".jar"))
                                    .sorted()
                                    .toList();
                    if (!jars.isEmpty()) {
                        return jars;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException(
                "Cannot find the jars of '"
                        + set
                        + "' in "
                        + roots
                        + ": build them with ./mvnw -B package -DskipTests -pl weir-bench-e2e -am");
    }

    private static Path existing(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    "Cannot find "
                            + jar
                            + ": build it with ./mvnw -B package -DskipTests -pl weir-bench-e2e -am");
        }
        return jar;
    }
}
