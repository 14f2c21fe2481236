package io.weir.flink.lookup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lookup-join benchmark of docs/lookup-join.md: Weir against Paimon (paimon-flink-1.20, the
 * version weir-bench-e2e uses), each run in its own JVM, on the same generated data. Off by
 * default:
 *
 * <pre>
 * ./mvnw -o -q -pl weir-flink -am test -Dtest=LookupJoinBenchTest -Dweir.lookup.bench=true \
 *   -Dsurefire.failIfNoSpecifiedTests=false -Dspotless.check.skip=true \
 *   [-Dweir.lookup.bench.rows=2000000 -Dweir.lookup.bench.probes=5000000]
 * </pre>
 *
 * Prints one RESULT line per run (see {@link LookupJoinBench}).
 */
@EnabledIfSystemProperty(named = "weir.lookup.bench", matches = "true")
class LookupJoinBenchTest {
    @TempDir Path dir;

    @Test
    void weirAgainstPaimon() throws Exception {
        long rows = Long.getLong("weir.lookup.bench.rows", 2_000_000);
        long probes = Long.getLong("weir.lookup.bench.probes", 5_000_000);
        String parallelism = System.getProperty("weir.lookup.bench.parallelism", "2");
        Path paimon =
                Path.of(
                        System.getProperty(
                                "weir.lookup.bench.paimon-jar",
                                System.getProperty("user.home")
                                        + "/.m2/repository/org/apache/paimon/paimon-flink-1.20/1.3.1/"
                                        + "paimon-flink-1.20-1.3.1.jar"));
        assertThat(paimon).as("Paimon's Flink jar (-Dweir.lookup.bench.paimon-jar)").exists();
        String classpath =
                System.getProperty(
                        "surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> results = new ArrayList<>();
        for (String join : System.getProperty("weir.lookup.bench.joins", "pk,nonkey").split(",")) {
            for (String system :
                    System.getProperty("weir.lookup.bench.systems", "weir,paimon").split(",")) {
                Path work = Files.createDirectories(dir.resolve(system + "-" + join));
                String cp =
                        system.equals("paimon")
                                ? classpath + File.pathSeparator + paimon
                                : classpath;
                results.add(run(cp, system, join, work, rows, probes, parallelism));
            }
        }
        System.out.println(
                "system join rows probes seconds lookups/s peakRssMiB liveHeapMiB peakDiskMiB"
                        + " loadSeconds");
        results.forEach(System.out::println);
    }

    private static String run(
            String classpath,
            String system,
            String join,
            Path work,
            long rows,
            long probes,
            String parallelism)
            throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + System.getProperty("weir.lookup.bench.heap", "2g"));
        cmd.add("-Djava.io.tmpdir=" + work.resolve("tmp"));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens")) {
                cmd.add(arg);
            }
        }
        cmd.addAll(
                List.of(
                        "-cp",
                        classpath,
                        LookupJoinBench.class.getName(),
                        system,
                        join,
                        work.toString(),
                        String.valueOf(rows),
                        String.valueOf(probes),
                        parallelism));
        Files.createDirectories(work.resolve("tmp"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String result = null;
        try (BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("RESULT ")) {
                    result = line.substring(7);
                } else if (line.contains("Exception") || line.contains("ERROR")) {
                    System.out.println(system + "/" + join + ": " + line);
                }
            }
        }
        assertThat(p.waitFor()).as("exit of the %s/%s run", system, join).isZero();
        assertThat(result).as("result of the %s/%s run", system, join).isNotNull();
        return result;
    }
}
