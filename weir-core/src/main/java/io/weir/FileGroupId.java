package io.weir;

import java.util.Comparator;

/** A (partition, bucket): the unit of writing, compaction and scan splitting. */
public record FileGroupId(Partition partition, int bucket) implements Comparable<FileGroupId> {
    private static final Comparator<FileGroupId> ORDER =
            Comparator.comparing(FileGroupId::partition).thenComparingInt(FileGroupId::bucket);

    @Override
    public int compareTo(FileGroupId o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return partition + "/bucket-" + bucket;
    }
}
