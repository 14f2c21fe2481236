package io.weir.bench.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The machine the benchmark ran on, as the report describes it (Linux; "unknown" elsewhere). */
record MachineInfo(
        int processors, String cpuModel, String memory, String os, String kernel, String java) {

    static MachineInfo current() {
        return new MachineInfo(
                Runtime.getRuntime().availableProcessors(),
                procField("/proc/cpuinfo", "model name").orElse("unknown"),
                procField("/proc/meminfo", "MemTotal")
                        .map(MachineInfo::gibibytes)
                        .orElse("unknown"),
                procField("/etc/os-release", "PRETTY_NAME")
                        .map(s -> s.replace("\"", ""))
                        .orElse(System.getProperty("os.name")),
                System.getProperty("os.name")
                        + " "
                        + System.getProperty("os.version")
                        + " "
                        + System.getProperty("os.arch"),
                javaVersion());
    }

    /** The 1, 5 and 15 minute load averages, or "unknown". */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " / " + fields[1] + " / " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** What {@code java -version} of the children's java prints. */
    private static String javaVersion() {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        try {
            Process p =
                    new ProcessBuilder(java.toString(), "-version")
                            .redirectErrorStream(true)
                            .start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(30, TimeUnit.SECONDS);
            return text.trim();
        } catch (IOException e) {
            return System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return System.getProperty("java.version");
        }
    }

    /** The value of the first {@code key: value} or {@code key=value} line of a file. */
    private static Optional<String> procField(String file, String key) {
        try {
            List<String> lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
            for (String line : lines) {
                if (line.startsWith(key)) {
                    int sep = line.indexOf(line.contains(":") ? ':' : '=');
                    if (sep > 0) {
                        return Optional.of(line.substring(sep + 1).trim());
                    }
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return Optional.empty();
    }

    private static String gibibytes(String memTotal) {
        long kb = Long.parseLong(memTotal.replaceAll("[^0-9]", ""));
        return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
    }
}
