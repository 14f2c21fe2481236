package io.weir.commit;

import io.weir.DataFile;
import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.Schema;
import io.weir.types.DataType;
import io.weir.types.TypeRoot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One partition per value (docs/format.md §2.3): a partition's identity is its stored texts, and a
 * FLOAT or DOUBLE value has several texts that read back to it (JDK 17 wrote other digits than the
 * canonical ones, e.g. {@code 9.999999999999999E22} for {@code 1.0E23}, and -0.0 and 0.0 are one
 * partition value). So a commit adopts, for a partition it adds files to or overwrites, the texts
 * of a live partition with equal values, compared as §2.4 orders them. Tables without a FLOAT or
 * DOUBLE partition key pay nothing; others one pass over the live file groups per commit.
 */
final class PartitionIdentity {
    private final boolean[] floating;
    private final List<DataType> types;
    private final Map<List<Object>, Partition> live = new HashMap<>();

    private PartitionIdentity(Schema schema, TableState base) {
        int[] positions = schema.partitionKeyPositions();
        this.floating = new boolean[positions.length];
        this.types = new ArrayList<>(positions.length);
        for (int i = 0; i < positions.length; i++) {
            DataType type = schema.rowType().type(positions[i]);
            types.add(type);
            floating[i] = type.root() == TypeRoot.FLOAT || type.root() == TypeRoot.DOUBLE;
        }
        for (FileGroupId group : base.fileGroups().keySet()) {
            live.putIfAbsent(key(group.partition()), group.partition());
        }
    }

    /** Null if no partition key is FLOAT or DOUBLE: texts are then one per value. */
    static PartitionIdentity of(Schema schema, TableState base) {
        for (int p : schema.partitionKeyPositions()) {
            TypeRoot root = schema.rowType().type(p).root();
            if (root == TypeRoot.FLOAT || root == TypeRoot.DOUBLE) {
                return new PartitionIdentity(schema, base);
            }
        }
        return null;
    }

    /** The live partition with the values of {@code p}, or {@code p} if there is none. */
    Partition adopt(Partition p) {
        if (p.values().size() != floating.length) {
            return p; // not this schema's partition: the commit's checks name it
        }
        Partition existing = live.get(key(p));
        return existing == null ? p : existing;
    }

    List<DataFile> adoptAll(List<DataFile> files) {
        List<DataFile> out = new ArrayList<>(files.size());
        for (DataFile f : files) {
            Partition p = adopt(f.partition());
            out.add(
                    p == f.partition()
                            ? f
                            : new DataFile(
                                    f.path(),
                                    f.kind(),
                                    p,
                                    f.bucket(),
                                    f.recordCount(),
                                    f.sizeInBytes(),
                                    f.sequence(),
                                    f.schemaId(),
                                    f.minKey(),
                                    f.maxKey(),
                                    f.columnStats()));
        }
        return out;
    }

    Set<Partition> adoptAll(Set<Partition> partitions) {
        Set<Partition> out = new LinkedHashSet<>();
        for (Partition p : partitions) {
            out.add(adopt(p));
        }
        return out;
    }

    /** The partition's values with each FLOAT or DOUBLE text replaced by its value's order key. */
    private List<Object> key(Partition p) {
        List<String> texts = p.values();
        if (texts.size() != floating.length) {
            return List.of(texts);
        }
        List<Object> key = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            String t = texts.get(i);
            if (!floating[i] || t == null) {
                key.add(t);
                continue;
            }
            double v;
            try {
                v = Double.parseDouble(t);
            } catch (NumberFormatException e) {
                key.add(t); // not a number: only itself
                continue;
            }
            if (types.get(i).root() == TypeRoot.FLOAT) {
                v = (float) v; // a FLOAT text is read as a float
            }
            // -0.0 and 0.0 are one value, every NaN is one value (§2.4).
            key.add(Double.doubleToLongBits(v == 0 ? 0.0 : v));
        }
        return key;
    }
}
