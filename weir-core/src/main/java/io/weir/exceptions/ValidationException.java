package io.weir.exceptions;

/** Input that Weir rejects: a bad schema, option, row or request. Nothing was changed. */
public class ValidationException extends WeirException {
    public ValidationException(String message) {
        super(message);
    }

    public ValidationException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Throws a ValidationException with the formatted message unless the condition holds. */
    public static void check(boolean condition, String format, Object... args) {
        if (!condition) {
            throw new ValidationException(String.format(format, args));
        }
    }
}
