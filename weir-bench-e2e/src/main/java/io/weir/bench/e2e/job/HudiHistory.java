package io.weir.bench.e2e.job;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Hudi merge-on-read table's history from its active timeline ({@code .hoodie/}), whose completed
 * instants are JSON commit metadata, read with Flink's shaded Jackson (the Hudi bundle relocates
 * its own):
 *
 * <ul>
 *   <li>every completed {@code deltacommit} and {@code commit}, in the order they completed (the
 *       completed instant file's modification time: Hudi 0.14 names an instant by its start);
 *   <li>a {@code deltacommit} is an ingest commit: it adds the log files its write statistics name
 *       ({@code path}, {@code totalWriteBytes}, {@code numWrites}); a block appended to a log file
 *       already live counts as a file of its own;
 *   <li>a {@code commit} is a compaction: it adds the base files it wrote and removes every live
 *       file of the same file group (file id) whose file slice is older than the compaction's
 *       instant; log files written while it ran already belong to its new slice;
 *   <li>sorted runs: a base file is one, each log file is one (a reader merges every log file of a
 *       slice with its base).
 * </ul>
 *
 * Instants archived out of the active timeline cannot be replayed: then there is no history (the
 * benchmark keeps them active, {@link SinkTable#options()}).
 */
final class HudiHistory {
    /** {@code .<file id>_<base instant>.log.<version>_<write token>}. */
    private static final Pattern LOG = Pattern.compile("^\\.(.+)_(\\d+)\\.log\\.\\d+_.+$");

    /** {@code <file id>_<write token>_<instant>.parquet}. */
    private static final Pattern BASE = Pattern.compile("^(.+)_[^_]+_(\\d+)\\.parquet$");

    private static final Pattern COMPLETED = Pattern.compile("^(\\d+)\\.(deltacommit|commit)$");

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A live file: its file group and the instant of the file slice it belongs to. */
    private record Slice(String fileId, String baseInstant) {}

    private record Instant(String time, boolean ingest, Path file, long completedMillis) {}

    private HudiHistory() {}

    /** The history, or null when instants were archived (the replay would miss files). */
    static CompactionHistory read(Path dir) {
        Path timeline = dir.resolve(".hoodie");
        if (hasFiles(timeline.resolve("archived"))) {
            return null;
        }
        CompactionHistory history = new CompactionHistory();
        Map<String, Slice> live = new HashMap<>();
        long id = 0;
        for (Instant instant : completedInstants(timeline)) {
            id++;
            List<CompactionHistory.File> added = new ArrayList<>();
            List<String> removed = new ArrayList<>();
            for (JsonNode stat : writeStats(instant.file())) {
                String partition = stat.path("partitionPath").asText("");
                String path = stat.path("path").asText();
                String fileName = path.substring(path.lastIndexOf('/') + 1);
                Slice slice = slice(fileName, instant);
                String name = live.containsKey(path) ? path + "@" + instant.time() : path;
                live.put(name, slice);
                String run = instant.ingest() ? "log:" + name : "base:" + slice.baseInstant();
                added.add(
                        new CompactionHistory.File(
                                partition + "/" + slice.fileId(),
                                name,
                                stat.path("totalWriteBytes").asLong(),
                                stat.path("numWrites").asLong(),
                                run));
            }
            if (!instant.ingest()) {
                Set<String> rewritten = new HashSet<>();
                added.forEach(f -> rewritten.add(live.get(f.name()).fileId()));
                Iterator<Map.Entry<String, Slice>> files = live.entrySet().iterator();
                while (files.hasNext()) {
                    Map.Entry<String, Slice> file = files.next();
                    Slice slice = file.getValue();
                    if (rewritten.contains(slice.fileId())
                            && slice.baseInstant().compareTo(instant.time()) < 0) {
                        removed.add(file.getKey());
                        files.remove();
                    }
                }
            }
            history.commit(id, instant.completedMillis(), instant.ingest(), added, removed);
        }
        return history;
    }

    private static Slice slice(String fileName, Instant instant) {
        Matcher log = LOG.matcher(fileName);
        if (log.matches()) {
            return new Slice(log.group(1), log.group(2));
        }
        Matcher base = BASE.matcher(fileName);
        if (base.matches()) {
            return new Slice(base.group(1), base.group(2));
        }
        throw new IllegalStateException(
                "Hudi instant " + instant.file() + " names a file of unknown form: " + fileName);
    }

    private static List<Instant> completedInstants(Path timeline) {
        List<Instant> instants = new ArrayList<>();
        try (Stream<Path> files = Files.list(timeline)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Matcher m = COMPLETED.matcher(file.getFileName().toString());
                if (m.matches()) {
                    instants.add(
                            new Instant(
                                    m.group(1),
                                    m.group(2).equals("deltacommit"),
                                    file,
                                    Files.getLastModifiedTime(file).toMillis()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the Hudi timeline " + timeline, e);
        }
        instants.sort(
                Comparator.comparingLong(Instant::completedMillis).thenComparing(Instant::time));
        return instants;
    }

    private static List<JsonNode> writeStats(Path instant) {
        JsonNode metadata;
        try {
            metadata = JSON.readTree(instant.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read Hudi instant " + instant, e);
        }
        List<JsonNode> stats = new ArrayList<>();
        metadata.path("partitionToWriteStats").forEach(partition -> partition.forEach(stats::add));
        return stats;
    }

    private static boolean hasFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> !f.getFileName().toString().startsWith("."));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
