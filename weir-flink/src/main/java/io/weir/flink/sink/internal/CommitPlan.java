package io.weir.flink.sink.internal;

import io.weir.DataFile;
import io.weir.Partition;
import io.weir.flink.sink.WeirCommittable;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one checkpoint's files become: an append, or (for INSERT OVERWRITE, in batch mode) the
 * replacement of the whole table, of one static partition, or of exactly the partitions that
 * received rows (dynamic).
 */
public final class CommitPlan implements Serializable {
    private static final long serialVersionUID = 1L;

    private enum Mode {
        APPEND,
        OVERWRITE_ALL,
        OVERWRITE_STATIC,
        OVERWRITE_DYNAMIC
    }

    private final Mode mode;

    /**
     * For OVERWRITE_STATIC: the canonical values of the partition (kept as a list: Serializable).
     */
    @Nullable private final ArrayList<String> staticPartition;

    private CommitPlan(Mode mode, @Nullable List<String> staticPartition) {
        this.mode = mode;
        this.staticPartition = staticPartition == null ? null : new ArrayList<>(staticPartition);
    }

    public static CommitPlan append() {
        return new CommitPlan(Mode.APPEND, null);
    }

    /**
     * An overwrite.
     *
     * @param partitioned whether the table has partition keys (if not, the whole table is replaced)
     * @param staticPartition the canonical values of every partition key if the statement fixed
     *     them all (that partition is replaced even if no row arrives), or null: then exactly the
     *     partitions that receive rows are replaced
     */
    public static CommitPlan overwrite(
            boolean partitioned, @Nullable List<String> staticPartition) {
        if (!partitioned) {
            return new CommitPlan(Mode.OVERWRITE_ALL, null);
        }
        return staticPartition == null
                ? new CommitPlan(Mode.OVERWRITE_DYNAMIC, null)
                : new CommitPlan(Mode.OVERWRITE_STATIC, staticPartition);
    }

    public boolean isOverwrite() {
        return mode != Mode.APPEND;
    }

    /**
     * The committable of one checkpoint's files, or null if there is nothing to commit (no files,
     * and not an overwrite that must empty something).
     */
    @Nullable
    public WeirCommittable committable(String writerId, long checkpointId, List<DataFile> files) {
        return switch (mode) {
            case APPEND ->
                    files.isEmpty() ? null : WeirCommittable.append(writerId, checkpointId, files);
            case OVERWRITE_ALL ->
                    new WeirCommittable(
                            writerId,
                            checkpointId,
                            WeirCommittable.Kind.OVERWRITE_ALL,
                            List.of(),
                            files);
                // Exactly the static partition: a file elsewhere makes the commit fail validation
                // instead of silently replacing another partition.
            case OVERWRITE_STATIC ->
                    overwrite(
                            writerId, checkpointId, List.of(new Partition(staticPartition)), files);
            case OVERWRITE_DYNAMIC -> {
                Set<Partition> partitions = new TreeSet<>();
                files.forEach(f -> partitions.add(f.partition()));
                yield partitions.isEmpty()
                        ? null
                        : overwrite(writerId, checkpointId, List.copyOf(partitions), files);
            }
        };
    }

    private static WeirCommittable overwrite(
            String writerId, long checkpointId, List<Partition> partitions, List<DataFile> files) {
        return new WeirCommittable(
                writerId,
                checkpointId,
                WeirCommittable.Kind.OVERWRITE_PARTITIONS,
                partitions,
                files);
    }

    @Override
    public String toString() {
        return mode == Mode.OVERWRITE_STATIC ? mode + staticPartition.toString() : mode.name();
    }
}
