package io.weir.exceptions;

/** No Weir table exists at the given location. */
public class NoSuchTableException extends WeirException {
    public NoSuchTableException(String message) {
        super(message);
    }
}
