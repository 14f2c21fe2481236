package io.weir.flink.sink;

import io.weir.DataFile;

import java.util.List;

/**
 * The files one writer subtask wrote for one checkpoint. They are invisible until the {@link
 * WeirCommittable} that gathers them is committed; if it never is, they are orphans for the
 * cleaner.
 *
 * @param files the log files, in the order the writer wrote them
 */
public record WeirWriteResult(List<DataFile> files) {
    public WeirWriteResult {
        files = List.copyOf(files);
    }

    @Override
    public String toString() {
        return "WeirWriteResult{files=" + files.size() + "}";
    }
}
