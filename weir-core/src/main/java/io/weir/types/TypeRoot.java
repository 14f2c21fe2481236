package io.weir.types;

/** The logical type families Weir stores. The names are the SQL names. */
public enum TypeRoot {
    BOOLEAN,
    TINYINT,
    SMALLINT,
    INT,
    BIGINT,
    FLOAT,
    DOUBLE,
    DECIMAL,
    CHAR,
    VARCHAR,
    BINARY,
    VARBINARY,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMP_LTZ;

    /** Whether values of this family live in the variable-length part of a row (when large). */
    public boolean isCharacterString() {
        return this == CHAR || this == VARCHAR;
    }

    public boolean isBinaryString() {
        return this == BINARY || this == VARBINARY;
    }
}
