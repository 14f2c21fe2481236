package io.weir.base;

import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.io.api.Binary;

/** Rows as parquet-java's example {@link Group}s, for files of parquet-java's own writer. */
final class ParquetGroups {
    private ParquetGroups() {}

    /** A group of {@code values}, one per field in order; nulls are left out. */
    static Group of(SimpleGroupFactory groups, Object... values) {
        Group group = groups.newGroup();
        for (int c = 0; c < values.length; c++) {
            add(group, c, values[c]);
        }
        return group;
    }

    /** Adds a value to field {@code c}: a Java boxed primitive, a String, bytes or a Binary. */
    static void add(Group group, int c, Object v) {
        if (v instanceof Boolean b) {
            group.add(c, b);
        } else if (v instanceof Integer i) {
            group.add(c, i);
        } else if (v instanceof Long l) {
            group.add(c, l);
        } else if (v instanceof Float f) {
            group.add(c, f);
        } else if (v instanceof Double d) {
            group.add(c, d);
        } else if (v instanceof String s) {
            group.add(c, s);
        } else if (v instanceof byte[] bytes) {
            group.add(c, Binary.fromConstantByteArray(bytes));
        } else if (v instanceof Binary binary) {
            group.add(c, binary);
        } else if (v != null) {
            throw new IllegalArgumentException("No Parquet value for " + v.getClass());
        }
    }
}
