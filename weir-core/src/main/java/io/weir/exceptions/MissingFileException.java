package io.weir.exceptions;

/** A file that committed metadata references does not exist: the table is damaged. */
public class MissingFileException extends WeirException {
    public MissingFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
