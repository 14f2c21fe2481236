package io.weir.flink.packaging;

import io.weir.Table;
import io.weir.Tables;
import io.weir.aws.testing.S3Server;
import io.weir.hadoop.testing.HdfsCluster;
import io.weir.options.StorageOptions;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks the connector jar ({@code target/weir-flink-<version>-connector.jar}, built by the shade
 * plugin in {@code package}): what it holds, and that it works dropped into Flink — a separate JVM
 * whose classpath is only Flink's jars, the connector jar and {@link DropInProbe}.
 */
class ConnectorJarIT {
    private static final String FACTORY_SERVICE =
            "META-INF/services/org.apache.flink.table.factories.Factory";

    /** Packages kept under their own names: JNI binds native methods to these class names. */
    private static final List<String> UNRELOCATED =
            List.of("com/github/luben/zstd/", "org/xerial/snappy/", "net/jpountz/");

    private static Path connectorJar;
    private static List<String> entries;

    @BeforeAll
    static void openJar() throws IOException {
        connectorJar = Path.of(System.getProperty("weir.connector.jar"));
        assertThat(connectorJar).as("built by the shade plugin in package").isRegularFile();
        try (JarFile jar = new JarFile(connectorJar.toFile())) {
            entries = jar.stream().map(JarEntry::getName).toList();
        }
    }

    @Test
    void everyClassIsWeirsOrRelocatedOrAJniLibrary() {
        List<String> stray = new ArrayList<>();
        for (String name : entries) {
            if (name.endsWith(".class")
                    && !name.startsWith("io/weir/")
                    && UNRELOCATED.stream().noneMatch(name::startsWith)) {
                stray.add(name);
            }
        }
        assertThat(stray).as("classes outside io.weir and the JNI libraries").isEmpty();
        assertThat(entries)
                .as("relocated libraries")
                .contains(
                        "io/weir/Tables.class",
                        "io/weir/shaded/com/fasterxml/jackson/databind/ObjectMapper.class",
                        "io/weir/shaded/org/apache/parquet/hadoop/ParquetFileWriter.class",
                        "io/weir/shaded/org/apache/hadoop/conf/Configuration.class",
                        "io/weir/aws/S3FileIO.class",
                        "io/weir/hadoop/HadoopFileIO.class",
                        "io/weir/shaded/org/apache/hadoop/hdfs/DistributedFileSystem.class",
                        "io/weir/shaded/software/amazon/awssdk/services/s3/S3Client.class",
                        "io/weir/shaded/org/apache/hc/client5/http/classic/HttpClient.class",
                        "net/jpountz/lz4/LZ4Factory.class",
                        "com/github/luben/zstd/Zstd.class",
                        "org/xerial/snappy/Snappy.class");
        assertThat(entries)
                .as("Flink and slf4j are provided; multi-release variants would not be relocated")
                .noneMatch(n -> n.startsWith("org/apache/flink/"))
                .noneMatch(n -> n.contains("org/slf4j/"))
                .noneMatch(n -> n.startsWith("META-INF/versions/"));
        assertThat(entries)
                .as("native libraries of zstd-jni, snappy-java and lz4-java, under their own paths")
                .contains("linux/amd64/libzstd-jni-1.5.7-6.so")
                .contains("net/jpountz/util/linux/amd64/liblz4-java.so")
                .anyMatch(n -> n.startsWith("org/xerial/snappy/native/Linux/x86_64/"));
    }

    @Test
    void servicesAreRelocatedAndWeirFactoriesSurvive() throws IOException {
        try (JarFile jar = new JarFile(connectorJar.toFile())) {
            for (String name : entries) {
                if (!name.startsWith("META-INF/services/") || name.endsWith("/")) {
                    continue;
                }
                String service = name.substring("META-INF/services/".length());
                assertThat(service)
                        .as("service interface of %s", name)
                        .matches("io\\.weir\\..*|org\\.apache\\.flink\\..*");
                assertThat(lines(jar.getInputStream(jar.getEntry(name))))
                        .as("implementations in %s", name)
                        .allMatch(impl -> impl.startsWith("io.weir."));
            }
            Path own = Path.of(System.getProperty("weir.classes.dir")).resolve(FACTORY_SERVICE);
            Set<String> expected = weirFactories();
            if (!expected.isEmpty()) {
                JarEntry entry = jar.getJarEntry(FACTORY_SERVICE);
                assertThat(entry).as(FACTORY_SERVICE + " in the connector jar").isNotNull();
                assertThat(lines(jar.getInputStream(entry))).containsAll(expected);
            } else {
                assertThat(own).doesNotExist();
            }
        }
    }

    /**
     * The lz4-java that Flink's distribution ships first (Flink 1.20: org.lz4 1.8.0; Flink 2.3: the
     * at.yawk.lz4 fork 1.10.3), then Flink's jars, then the connector jar (an application's Maven
     * classpath): Weir's LZ4 codec still compresses with its own fork's native accelerated
     * compressor (docs/packaging.md).
     */
    @Test
    void lz4StaysFastWithFlinksLz4JavaFirst(@TempDir Path dir) throws Exception {
        Path probeClasses = dir.resolve("probe");
        FlinkDistribution.copyClasses(Lz4OrderProbe.class, probeClasses);
        List<String> flink = FlinkDistribution.jars(connectorJar);
        List<Path> flinkLz4;
        try (Stream<Path> jars = Files.list(Path.of(System.getProperty("weir.flink.lz4.dir")))) {
            flinkLz4 = jars.toList();
        }
        assertThat(flinkLz4).as("the lz4-java of Flink's distribution").hasSize(1);
        List<String> classpath = new ArrayList<>();
        classpath.add(flinkLz4.get(0).toString());
        classpath.addAll(flink);
        classpath.add(probeClasses.toString());
        classpath.add(connectorJar.toString());
        Process process =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Xmx256m",
                                "-cp",
                                String.join(File.pathSeparator, classpath),
                                Lz4OrderProbe.class.getName())
                        .redirectErrorStream(true)
                        .start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as(output).isTrue();
        assertThat(output)
                .contains(
                        "net.jpountz.lz4.LZ4Factory on the classpath: file:"
                                + flinkLz4.get(0).toAbsolutePath())
                .contains("OK lz4: fast path with Flink's lz4-java first")
                .contains(
                        "Weir's LZ4: lz4-java fork from jar:file:" + connectorJar.toAbsolutePath());
        assertThat(process.exitValue()).as(output).isZero();
    }

    /**
     * The probe writes and reads tables on local disk, on the S3 server and on a MiniDFSCluster
     * (started in this JVM, with its own libraries, which the probe's JVM does not have) through
     * the connector jar; this JVM then reads the HDFS table back with the unshaded classes. The
     * cluster starts (seconds) while the probe runs its other checks; the probe waits for {@code
     * hdfs-handover}, written when it is up.
     */
    @Test
    void worksDroppedIntoFlink(@TempDir Path dir) throws Exception {
        S3Server s3 = S3Server.get();
        Path handover = dir.resolve("hdfs-handover");
        CompletableFuture<String> hdfsStarted =
                CompletableFuture.supplyAsync(() -> handOver(HdfsCluster.get(), handover));
        Path probeClasses = dir.resolve("probe");
        FlinkDistribution.copyClasses(DropInProbe.class, probeClasses);
        List<String> classpath = new ArrayList<>();
        classpath.add(connectorJar.toString());
        classpath.add(probeClasses.toString());
        classpath.addAll(FlinkDistribution.jars(connectorJar));

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(
                List.of(
                        "-Xmx512m",
                        "--add-opens=java.base/java.lang=ALL-UNNAMED",
                        "--add-opens=java.base/java.util=ALL-UNNAMED",
                        "--add-opens=java.base/java.nio=ALL-UNNAMED",
                        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                        "-Dweir.connector.jar=" + connectorJar,
                        "-Dweir.s3.endpoint=" + s3.endpoint(),
                        "-Dweir.s3.location=s3://"
                                + S3Server.BUCKET
                                + "/"
                                + UUID.randomUUID()
                                + "/t",
                        "-Dweir.s3.access-key=" + S3Server.ACCESS_KEY,
                        "-Dweir.s3.secret-key=" + S3Server.SECRET_KEY,
                        "-Dweir.hdfs.handover=" + handover,
                        "-cp",
                        String.join(File.pathSeparator, classpath),
                        DropInProbe.class.getName(),
                        dir.resolve("tables").toString()));
        command.addAll(weirFactories());
        Path log = dir.resolve("probe.log");
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        boolean exited = process.waitFor(5, TimeUnit.MINUTES);
        if (!exited) {
            process.destroyForcibly();
        }
        String output = Files.readString(log);
        String hdfsLocation = hdfsStarted.get(1, TimeUnit.MINUTES);
        // In the test report: what each part took (the HDFS part says how long it waited).
        System.out.println(output);
        assertThat(exited).as("probe finished in time:\n%s", output).isTrue();
        assertThat(process.exitValue()).as("probe output:\n%s", output).isZero();
        assertThat(output)
                .contains("OK classes:")
                .contains("OK factories:")
                .contains("OK table: 200 rows written and read, log codec lz4, base files snappy")
                .contains("OK table: 200 rows written and read, log codec zstd, base files zstd")
                .contains("OK s3: a table on " + s3.endpoint())
                .contains(
                        "OK hdfs: a table on "
                                + hdfsLocation
                                + " through io.weir.hadoop.HadoopFileIO")
                .contains("OK flink:")
                .contains("DONE");
        if (weirFactories().contains("io.weir.flink.catalog.WeirCatalogFactory")) {
            assertThat(output).contains("OK catalog:");
        }
        Table onHdfs =
                Tables.load(hdfsLocation, StorageOptions.of(HdfsCluster.get().storageOptions()));
        assertThat(DropInProbe.read(onHdfs))
                .as("the table the connector jar wrote on HDFS, read unshaded")
                .isEqualTo(DropInProbe.expectedRows());
    }

    /**
     * Writes the probe's {@code handover} file (a table's location on the cluster, then its storage
     * options, one per line) under a temporary name and moves it into place, so that the probe
     * never reads half of it; returns the location.
     */
    private static String handOver(HdfsCluster cluster, Path handover) {
        String location = cluster.newLocation("t");
        List<String> lines = new ArrayList<>();
        lines.add(location);
        cluster.storageOptions().forEach((k, v) -> lines.add(k + "=" + v));
        try {
            Path tmp = handover.resolveSibling(handover.getFileName() + ".tmp");
            Files.write(tmp, lines);
            Files.move(tmp, handover, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return location;
    }

    /** The class names that weir-flink registers as Flink table factories (may be none yet). */
    private static Set<String> weirFactories() throws IOException {
        Path own = Path.of(System.getProperty("weir.classes.dir")).resolve(FACTORY_SERVICE);
        if (!Files.exists(own)) {
            return Collections.emptySet();
        }
        try (InputStream in = Files.newInputStream(own)) {
            return new TreeSet<>(lines(in));
        }
    }

    private static List<String> lines(InputStream in) throws IOException {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(l -> l.replaceAll("#.*", "").strip())
                    .filter(l -> !l.isEmpty())
                    .toList();
        }
    }
}
