package io.weir.flink.lookup;

import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.flink.FlinkRows;
import io.weir.flink.FlinkTypes;

import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * The join key of a lookup, as a row of the key fields written by one writer, so that equal key
 * values have equal bytes whether they come from a probe or from a stored row (both go through
 * {@link FlinkRows.ToWeir} from a row that is not binary). When the key holds the whole primary
 * key, it also gives the key's bucket: Weir's key hash of the primary-key fields in key order, as
 * the writer computes it (docs/format.md), modulo the bucket count.
 */
final class LookupKeys {
    private final int[] positions;
    private final RowData.FieldGetter[] getters;
    private final GenericRowData storedKey;
    private final BinaryRowData storedView;
    private final FlinkRows.ToWeir probeWriter;
    private final FlinkRows.ToWeir storedWriter;
    private final KeyFields bucketKey;

    /**
     * @param rowType the rows the lookup returns
     * @param positions the key fields' positions in those rows, in the order of the probe's keys
     * @param primaryKey the table's primary key (empty for an append-only table)
     */
    LookupKeys(RowType rowType, int[] positions, List<String> primaryKey) {
        this.positions = positions.clone();
        List<RowType.RowField> fields = new ArrayList<>();
        this.getters = new RowData.FieldGetter[positions.length];
        for (int i = 0; i < positions.length; i++) {
            LogicalType type = rowType.getTypeAt(positions[i]);
            fields.add(new RowType.RowField(rowType.getFieldNames().get(positions[i]), type));
            getters[i] = RowData.createFieldGetter(type, positions[i]);
        }
        RowType keyType = new RowType(false, fields);
        this.storedKey = new GenericRowData(positions.length);
        this.storedView = new BinaryRowData(rowType.getFieldCount());
        this.probeWriter = new FlinkRows.ToWeir(keyType);
        this.storedWriter = new FlinkRows.ToWeir(keyType);
        int[] primaryKeyInKey = primaryKeyInKey(keyType.getFieldNames(), primaryKey);
        this.bucketKey =
                primaryKeyInKey == null
                        ? null
                        : KeyFields.of(FlinkTypes.toWeir(keyType), primaryKeyInKey);
    }

    /** The positions in the key of the primary-key fields, in primary-key order, or null. */
    private static int[] primaryKeyInKey(List<String> keyNames, List<String> primaryKey) {
        if (primaryKey.isEmpty()) {
            return null;
        }
        int[] positions = new int[primaryKey.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = keyNames.indexOf(primaryKey.get(i));
            if (positions[i] < 0) {
                return null;
            }
        }
        return positions;
    }

    /** Whether the key holds the whole primary key, so that it names one bucket. */
    boolean byBucket() {
        return bucketKey != null;
    }

    /**
     * The key of a probe: a view valid until the next call, or null when a key field is null (SQL
     * equality matches nothing then).
     */
    BinaryRow probe(RowData keyRow) {
        for (int i = 0; i < positions.length; i++) {
            if (keyRow.isNullAt(i)) {
                return null;
            }
        }
        return probeWriter.convert(keyRow);
    }

    /** The key of a stored row (a view valid until the next call), or null if a field is null. */
    BinaryRow keyOf(BinaryRow row) {
        storedView.pointTo(MemorySegmentFactory.wrap(row.bytes()), row.offset(), row.sizeInBytes());
        for (int i = 0; i < positions.length; i++) {
            Object value = getters[i].getFieldOrNull(storedView);
            if (value == null) {
                return null;
            }
            storedKey.setField(i, value);
        }
        return storedWriter.convert(storedKey);
    }

    /** The bucket of a key, for a key that {@link #byBucket()}. */
    int bucket(BinaryRow key, int buckets) {
        return bucketKey.bucket(key, buckets);
    }
}
