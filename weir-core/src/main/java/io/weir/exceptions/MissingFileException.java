package io.weir.exceptions;

/**
 * A file that committed metadata references does not exist (the table is damaged), or a file that a
 * commit would add does not (the commit is refused, so that the table is not).
 */
public class MissingFileException extends WeirException {
    public MissingFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
