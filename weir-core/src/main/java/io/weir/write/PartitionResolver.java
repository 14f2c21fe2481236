package io.weir.write;

import io.weir.Partition;
import io.weir.Schema;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.ValueStrings;
import io.weir.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Maps a row to a small partition id by the values of its partition fields, directly on the row
 * bytes. A row of the same partition as the previous one costs one key comparison; another known
 * partition one hash and a probe of an open-addressing table. Only a new partition allocates (its
 * {@link Partition} and a copy of one of its rows), once.
 */
public final class PartitionResolver {
    private final KeyFields fields;
    private final int[] positions;
    private final List<DataType> types;
    private final List<Partition> partitions = new ArrayList<>();
    private final List<BinaryRow> representatives = new ArrayList<>();

    /** Open addressing: slot holds partition id + 1, or 0 for empty. */
    private int[] slots = new int[16];

    private int[] hashes = new int[16];
    private int last = -1;

    public PartitionResolver(Schema schema) {
        this.positions = schema.partitionKeyPositions();
        this.fields = positions.length == 0 ? null : KeyFields.of(schema.rowType(), positions);
        this.types = Arrays.stream(positions).mapToObj(schema.rowType()::type).toList();
        if (fields == null) {
            partitions.add(Partition.UNPARTITIONED);
            last = 0;
        }
    }

    /** The id of the row's partition (0 for an unpartitioned table). */
    public int resolve(BinaryRow row) {
        if (fields == null) {
            return 0;
        }
        if (last >= 0 && fields.compare(row, representatives.get(last)) == 0) {
            return last;
        }
        int hash = fields.hash(row);
        int mask = slots.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            int slot = slots[i];
            if (slot == 0) {
                int id = add(row);
                insert(id, hash);
                return last = id;
            }
            int id = slot - 1;
            if (hashes[id] == hash && fields.compare(row, representatives.get(id)) == 0) {
                return last = id;
            }
        }
    }

    public Partition partition(int id) {
        return partitions.get(id);
    }

    /** The number of partitions seen so far; an unpartitioned table has its one from the start. */
    public int size() {
        return partitions.size();
    }

    private int add(BinaryRow row) {
        int id = partitions.size();
        List<String> values = new ArrayList<>(positions.length);
        for (int i = 0; i < positions.length; i++) {
            Object value = row.get(positions[i], types.get(i));
            // -0.0 and 0.0 are one partition (the key order makes them equal): text 0.0.
            if (value instanceof Double d && d == 0) {
                value = 0.0;
            } else if (value instanceof Float f && f == 0) {
                value = 0.0f;
            }
            values.add(ValueStrings.toText(value, types.get(i)));
        }
        partitions.add(new Partition(values));
        representatives.add(row.copy());
        return id;
    }

    private void insert(int id, int hash) {
        if (id >= hashes.length) {
            hashes = Arrays.copyOf(hashes, hashes.length * 2);
        }
        hashes[id] = hash;
        if ((id + 1) * 2 > slots.length) {
            slots = new int[slots.length * 2];
            for (int p = 0; p <= id; p++) {
                place(p, hashes[p]);
            }
        } else {
            place(id, hash);
        }
    }

    private void place(int id, int hash) {
        int mask = slots.length - 1;
        int i = hash & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = id + 1;
    }
}
