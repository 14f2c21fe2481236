package io.weir.exceptions;

/** A table already exists at the given location. */
public class TableAlreadyExistsException extends WeirException {
    public TableAlreadyExistsException(String message) {
        super(message);
    }
}
