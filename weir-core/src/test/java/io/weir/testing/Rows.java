package io.weir.testing;

import io.weir.data.BinaryRow;
import io.weir.data.RowReader;
import io.weir.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Decodes rows into comparable Java values for assertions against a model. */
public final class Rows {
    private Rows() {}

    /** The values of a row as a list (byte[] becomes a List of bytes so equality works). */
    public static List<Object> values(BinaryRow row, RowType type) {
        List<Object> values = new ArrayList<>(type.size());
        for (int i = 0; i < type.size(); i++) {
            Object v = row.get(i, type.type(i));
            values.add(v instanceof byte[] b ? toList(b) : v);
        }
        return values;
    }

    /** Reads all rows of a reader, each as its kind's short string followed by its values. */
    public static List<List<Object>> readAll(RowReader reader, RowType type, boolean withKind) {
        List<List<Object>> rows = new ArrayList<>();
        try (reader) {
            while (reader.next()) {
                List<Object> values = new ArrayList<>();
                if (withKind) {
                    values.add(reader.row().rowKind().shortString());
                }
                values.addAll(values(reader.row(), type));
                rows.add(values);
            }
        }
        return rows;
    }

    private static List<Byte> toList(byte[] b) {
        Byte[] boxed = new Byte[b.length];
        Arrays.setAll(boxed, i -> b[i]);
        return Arrays.asList(boxed);
    }
}
