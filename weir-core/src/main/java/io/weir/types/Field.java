package io.weir.types;

import java.util.Objects;

/**
 * A named, typed column. {@code id} is stable for the life of the table (assigned at creation,
 * never reused), so that files written under one schema can be read under another.
 */
public record Field(int id, String name, DataType type, String description) {
    public Field {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (name.isBlank()) {
            throw new IllegalArgumentException("Invalid field name: must not be blank");
        }
        if (id < 0) {
            throw new IllegalArgumentException("Invalid field id " + id + " for field " + name);
        }
    }

    public Field(int id, String name, DataType type) {
        this(id, name, type, null);
    }

    @Override
    public String toString() {
        return name + " " + type;
    }
}
