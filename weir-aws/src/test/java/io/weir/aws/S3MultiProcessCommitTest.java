package io.weir.aws;

import io.weir.Table;
import io.weir.Tables;
import io.weir.aws.testing.S3Server;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two JVM processes commit to one table on S3 at once, in tight loops, and a third (this one) reads
 * meanwhile: every commit lands exactly once, whatever the interleaving. Only the conditional PUT
 * orders them; the processes share nothing else.
 */
class S3MultiProcessCommitTest {
    private static final int COMMITS = 25;

    @Test
    void twoProcessesLoseNoCommitAndDuplicateNone() throws Exception {
        S3Server server = S3Server.get();
        String location = "s3://" + S3Server.BUCKET + "/procs-" + UUID.randomUUID() + "/t";
        try (S3FileIO io = new S3FileIO(server.options())) {
            TestTable.create(io, location);

            List<Process> processes = new ArrayList<>();
            List<Path> logs = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                Path log = Files.createTempFile("weir-commit-loop-", ".log");
                logs.add(log);
                ProcessBuilder pb =
                        new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Xmx256m",
                                "-cp",
                                System.getProperty("java.class.path"),
                                CommitLoop.class.getName(),
                                server.endpoint(),
                                location,
                                "process-" + p,
                                String.valueOf(COMMITS),
                                String.valueOf(p * 1000));
                pb.redirectErrorStream(true).redirectOutput(log.toFile());
                processes.add(pb.start());
            }
            // Meanwhile, a reader sees the commits in order and never a gap.
            long seen = 0;
            Table reader = Tables.load(io, location);
            while (processes.stream().anyMatch(Process::isAlive)) {
                reader.refresh();
                long latest = reader.currentSnapshot().id();
                assertThat(latest).isGreaterThanOrEqualTo(seen);
                seen = latest;
                Thread.sleep(100);
            }
            for (int p = 0; p < 2; p++) {
                Process process = processes.get(p);
                assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
                String out = Files.readString(logs.get(p), StandardCharsets.UTF_8);
                assertThat(process.exitValue())
                        .as("process %d exited; its output:%n%s", p, out)
                        .isZero();
                out.lines().filter(l -> l.startsWith("REQUESTS")).forEach(System.out::println);
                Files.delete(logs.get(p));
            }

            Map<Integer, Long> model = new TreeMap<>();
            for (int p = 0; p < 2; p++) {
                for (int c = 1; c <= COMMITS; c++) {
                    model.put(p * 1000 + c, (long) c);
                }
            }
            TestTable.assertMatches(
                    io, location, model, Map.of("process-0", COMMITS, "process-1", COMMITS));
            assertThat(Tables.load(io, location).currentSnapshot().id()).isEqualTo(2 * COMMITS);
        }
    }
}
