package io.weir.exceptions;

/** The root of Weir's unchecked exceptions. */
public class WeirException extends RuntimeException {
    public WeirException(String message) {
        super(message);
    }

    public WeirException(String message, Throwable cause) {
        super(message, cause);
    }
}
