package io.weir.write;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.log.LogFileReader;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads a {@link SpillRun} back as {@link SortedRows}: rows from its file, groups from its extents,
 * key prefixes recomputed (cheaper than storing them). Memory: one stored and one decompressed
 * block of the file.
 */
final class RunRows implements SortedRows {
    private final SpillRun run;
    private final LogFileReader reader;
    private final KeyFields key;
    private int groupIndex = -1;
    private long leftInGroup;
    private long group;
    private long prefix;

    RunRows(SpillRun run, LogFileReader reader, KeyFields key) {
        this.run = run;
        this.reader = reader;
        this.key = key;
    }

    @Override
    public boolean next() {
        try {
            while (leftInGroup == 0) {
                if (++groupIndex == run.groupCount()) {
                    if (reader.next()) {
                        throw new IllegalStateException(run + " holds more rows than it counted");
                    }
                    return false;
                }
                group = run.group(groupIndex);
                leftInGroup = run.count(groupIndex);
            }
            if (!reader.next()) {
                throw new IllegalStateException(run + " holds fewer rows than it counted");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read spill file " + run.path, e);
        }
        leftInGroup--;
        prefix = key == null ? 0L : key.normalizedPrefix(reader.row());
        return true;
    }

    @Override
    public long group() {
        return group;
    }

    @Override
    public long prefix() {
        return prefix;
    }

    @Override
    public BinaryRow row() {
        return reader.row();
    }

    @Override
    public boolean rowsStayValid() {
        return false;
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close spill file " + run.path, e);
        }
    }
}
