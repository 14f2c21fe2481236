package io.weir.types;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** An ordered list of uniquely named {@link Field}s: the shape of a row. */
public final class RowType {
    private final List<Field> fields;
    private final Map<String, Integer> indexByName;

    public RowType(List<Field> fields) {
        this.fields = List.copyOf(fields);
        Map<String, Integer> index = new HashMap<>();
        Map<Integer, String> ids = new HashMap<>();
        for (int i = 0; i < this.fields.size(); i++) {
            Field f = this.fields.get(i);
            if (index.put(f.name(), i) != null) {
                throw new IllegalArgumentException(
                        "Invalid row type: duplicate field name " + f.name());
            }
            String other = ids.put(f.id(), f.name());
            if (other != null) {
                throw new IllegalArgumentException(
                        "Invalid row type: fields "
                                + other
                                + " and "
                                + f.name()
                                + " share id "
                                + f.id());
            }
        }
        this.indexByName = Collections.unmodifiableMap(index);
    }

    /** A row type whose field ids are 0..n-1 in order. */
    public static RowType of(Object... namesAndTypes) {
        if (namesAndTypes.length % 2 != 0) {
            throw new IllegalArgumentException("Expected name/type pairs");
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < namesAndTypes.length; i += 2) {
            fields.add(
                    new Field(i / 2, (String) namesAndTypes[i], (DataType) namesAndTypes[i + 1]));
        }
        return new RowType(fields);
    }

    public List<Field> fields() {
        return fields;
    }

    public int size() {
        return fields.size();
    }

    public Field field(int pos) {
        return fields.get(pos);
    }

    public DataType type(int pos) {
        return fields.get(pos).type();
    }

    /** The position of a field, or -1. */
    public int indexOf(String name) {
        Integer i = indexByName.get(name);
        return i == null ? -1 : i;
    }

    public List<String> names() {
        return fields.stream().map(Field::name).toList();
    }

    /** The row type of the given positions, in that order. */
    public RowType project(int[] positions) {
        List<Field> projected = new ArrayList<>(positions.length);
        for (int p : positions) {
            projected.add(fields.get(p));
        }
        return new RowType(projected);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowType other && fields.equals(other.fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return "ROW<" + String.join(", ", fields.stream().map(Field::toString).toList()) + ">";
    }
}
