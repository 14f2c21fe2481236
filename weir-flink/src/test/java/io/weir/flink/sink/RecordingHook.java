package io.weir.flink.sink;

import io.weir.DataFile;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Records which writer subtask wrote each file, in a registry of the test JVM. */
final class RecordingHook implements WeirSinkHook {
    private static final Map<String, Map<String, Integer>> WRITERS = new ConcurrentHashMap<>();

    private final String id;

    RecordingHook(String id) {
        this.id = id;
        WRITERS.put(id, new ConcurrentHashMap<>());
    }

    @Override
    public void afterPrepareCommit(int subtask, java.util.List<DataFile> files) {
        Map<String, Integer> writers = WRITERS.get(id);
        files.forEach(f -> writers.put(f.path(), subtask));
    }

    /** File path to the subtask that wrote it. */
    Map<String, Integer> writers() {
        return WRITERS.get(id);
    }
}
