package io.weir.exceptions;

/**
 * A compaction could not rewrite one of its file groups; {@link #getCause()} says why. Nothing of
 * the compaction was committed, and the outputs it had written are deleted.
 */
public class FileGroupCompactionException extends WeirException {
    private final String fileGroup;

    public FileGroupCompactionException(
            String location, String fileGroup, int files, Throwable cause) {
        super(
                "Compaction of file group "
                        + fileGroup
                        + " ("
                        + files
                        + " files) of table "
                        + location
                        + " failed: "
                        + cause.getMessage(),
                cause);
        this.fileGroup = fileGroup;
    }

    /** The file group that failed, as {@code FileGroupId.toString()} names it. */
    public String fileGroup() {
        return fileGroup;
    }
}
