package io.weir.exceptions;

/** A file's bytes are not what was written: a checksum mismatch, bad magic or a truncated file. */
public class CorruptFileException extends WeirException {
    private final String path;
    private final long offset;

    public CorruptFileException(String path, long offset, String problem) {
        super("Corrupt file " + path + " at offset " + offset + ": " + problem);
        this.path = path;
        this.offset = offset;
    }

    /** A corrupt file whose problem has no meaningful byte offset, e.g. a missing JSON field. */
    public CorruptFileException(String path, String problem) {
        super("Corrupt file " + path + ": " + problem);
        this.path = path;
        this.offset = -1;
    }

    private CorruptFileException(String message, String path, long offset, Throwable cause) {
        super(message, cause);
        this.path = path;
        this.offset = offset;
    }

    /** The same error with advice appended to the message, e.g. how to repair the table. */
    public CorruptFileException withAdvice(String advice) {
        return new CorruptFileException(getMessage() + ". " + advice, path, offset, this);
    }

    /** A fresh copy of this error (same message and path), thrown from another place. */
    public CorruptFileException rethrown() {
        return new CorruptFileException(getMessage(), path, offset, this);
    }

    public String path() {
        return path;
    }

    /** The byte offset of the problem, or -1 if it has none. */
    public long offset() {
        return offset;
    }
}
