package io.weir.types;

/**
 * The type changes a column may take by {@code ALTER TABLE}: those under which every value written
 * with the old type reads, unchanged in meaning, as a value of the new type (docs/format.md,
 * "Schema evolution"). Files are never rewritten for them; readers convert old values.
 */
public final class TypeWidening {
    /** The rule, as error messages state it. */
    public static final String RULES =
            "TINYINT -> SMALLINT -> INT -> BIGINT, FLOAT -> DOUBLE, DECIMAL(p, s) -> DECIMAL(p', s)"
                    + " with p' > p, VARCHAR(n) -> VARCHAR(n') and VARBINARY(n) -> VARBINARY(n')"
                    + " with n' > n, any type -> STRING; NOT NULL may become nullable, never the"
                    + " reverse";

    private TypeWidening() {}

    /**
     * Whether a column of type {@code from} may become {@code to}. An unchanged type is allowed; so
     * is dropping NOT NULL, but not adding it.
     */
    public static boolean allowed(DataType from, DataType to) {
        return !(from.nullable() && !to.nullable()) && allowedIgnoringNullability(from, to);
    }

    private static boolean allowedIgnoringNullability(DataType from, DataType to) {
        if (sameIgnoringNullability(from, to)) {
            return true;
        }
        if (to.root() == TypeRoot.VARCHAR && to.length() == DataType.MAX_LENGTH) {
            return true; // any type -> STRING
        }
        return switch (from.root()) {
            case TINYINT ->
                    to.root() == TypeRoot.SMALLINT
                            || to.root() == TypeRoot.INT
                            || to.root() == TypeRoot.BIGINT;
            case SMALLINT -> to.root() == TypeRoot.INT || to.root() == TypeRoot.BIGINT;
            case INT -> to.root() == TypeRoot.BIGINT;
            case FLOAT -> to.root() == TypeRoot.DOUBLE;
            case DECIMAL ->
                    to.root() == TypeRoot.DECIMAL
                            && to.scale() == from.scale()
                            && to.precision() > from.precision();
            case VARCHAR, VARBINARY -> to.root() == from.root() && to.length() > from.length();
            default -> false;
        };
    }

    /**
     * Whether values of {@code from} keep their order and their canonical texts (docs/format.md) as
     * values of {@code to}: then statistics written under {@code from} prune reads under {@code
     * to}. True for integer widening, DECIMAL precision and VARCHAR/VARBINARY length; false for
     * FLOAT -> DOUBLE (a float's shortest text is not its double's) and for conversions to STRING.
     */
    public static boolean keepsStatistics(DataType from, DataType to) {
        if (sameIgnoringNullability(from, to)) {
            return true;
        }
        return switch (from.root()) {
            case TINYINT, SMALLINT, INT -> allowedIgnoringNullability(from, to) && isInteger(to);
            case DECIMAL -> to.root() == TypeRoot.DECIMAL && to.scale() == from.scale();
            case VARCHAR, VARBINARY, CHAR -> to.root() == from.root();
            default -> false;
        };
    }

    private static boolean isInteger(DataType t) {
        return switch (t.root()) {
            case TINYINT, SMALLINT, INT, BIGINT -> true;
            default -> false;
        };
    }

    static boolean sameIgnoringNullability(DataType a, DataType b) {
        return a.root() == b.root() && a.precision() == b.precision() && a.scale() == b.scale();
    }
}
