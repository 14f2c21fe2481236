package io.weir.flink.sink;

import io.weir.DataFile;
import io.weir.Partition;

import java.util.List;
import java.util.Objects;

/**
 * Everything one checkpoint of a {@link WeirSink} commits, gathered from all its writers: the
 * committer turns it into exactly one atomic Weir commit.
 *
 * <p>The identity ({@code writerId}, {@code checkpointId}) is recorded in the commit, so that
 * committing the same committable again after a failover changes nothing. It is fixed when the
 * committable is created and travels with it through Flink's state; see {@link WeirSink} for how
 * the writer id is chosen.
 *
 * @param writerId who commits: stable across restarts of one sink, distinct between sinks
 * @param checkpointId the Flink checkpoint the files belong to (at end of input in Flink 1.20: the
 *     last checkpoint id plus one)
 * @param kind append, or overwrite the whole table or some partitions
 * @param overwritten for {@link Kind#OVERWRITE_PARTITIONS}: the partitions replaced; else empty
 * @param files the new files
 */
public record WeirCommittable(
        String writerId,
        long checkpointId,
        Kind kind,
        List<Partition> overwritten,
        List<DataFile> files) {

    /** What the commit does with the files. */
    public enum Kind {
        /** Add the files. */
        APPEND(0),
        /** Replace every row of the table with the files' rows. */
        OVERWRITE_ALL(1),
        /** Replace the rows of the {@code overwritten} partitions with the files' rows. */
        OVERWRITE_PARTITIONS(2);

        private final int code;

        Kind(int code) {
            this.code = code;
        }

        /** The persisted code; never the ordinal, so that kinds may be added in any order. */
        public int code() {
            return code;
        }

        public static Kind fromCode(int code) {
            for (Kind k : values()) {
                if (k.code == code) {
                    return k;
                }
            }
            throw new IllegalArgumentException("Unknown committable kind code " + code);
        }
    }

    public WeirCommittable {
        Objects.requireNonNull(writerId, "writerId");
        Objects.requireNonNull(kind, "kind");
        overwritten = List.copyOf(overwritten);
        files = List.copyOf(files);
        if ((kind == Kind.OVERWRITE_PARTITIONS) == overwritten.isEmpty()) {
            throw new IllegalArgumentException(
                    "A "
                            + kind
                            + " committable must "
                            + (kind == Kind.OVERWRITE_PARTITIONS ? "" : "not ")
                            + "name partitions to overwrite, got "
                            + overwritten);
        }
    }

    /** An append of {@code files}. */
    public static WeirCommittable append(String writerId, long checkpointId, List<DataFile> files) {
        return new WeirCommittable(writerId, checkpointId, Kind.APPEND, List.of(), files);
    }

    /** The number of records in the files (deletes included). */
    public long recordCount() {
        long n = 0;
        for (DataFile f : files) {
            n += f.recordCount();
        }
        return n;
    }

    /** Short on purpose: Flink puts it into failure messages. */
    @Override
    public String toString() {
        return "WeirCommittable{writer="
                + writerId
                + ", checkpoint="
                + checkpointId
                + ", kind="
                + kind
                + (overwritten.isEmpty() ? "" : ", partitions=" + overwritten)
                + ", files="
                + files.size()
                + "}";
    }
}
