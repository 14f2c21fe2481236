package io.weir.flink.source;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies a changelog of rows [kind, id, dt, name, v] to a map from key [id, dt] to row, strictly:
 * +I and +U must find the key absent, -U and -D must find exactly the retracted row. A lost or
 * duplicated change therefore shows up as an error or as a different final content.
 */
final class Changelog {
    final Map<List<Object>, List<Object>> rows = new HashMap<>();
    final List<String> errors = new ArrayList<>();
    long applied;

    Changelog() {}

    Changelog(Map<List<Object>, List<Object>> start) {
        rows.putAll(start);
    }

    void apply(List<Object> change) {
        String kind = (String) change.get(0);
        List<Object> row = List.copyOf(change.subList(1, change.size()));
        List<Object> key = row.subList(0, 2);
        applied++;
        switch (kind) {
            case "+I", "+U" -> {
                List<Object> old = rows.put(key, row);
                if (old != null) {
                    errors.add(kind + " " + row + " found the key present: " + old);
                }
            }
            case "-U", "-D" -> {
                List<Object> old = rows.remove(key);
                if (!row.equals(old)) {
                    errors.add(kind + " " + row + " found " + old);
                }
            }
            default -> errors.add("unknown kind " + kind);
        }
    }
}
