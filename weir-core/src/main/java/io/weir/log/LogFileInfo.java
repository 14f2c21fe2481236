package io.weir.log;

import java.util.Objects;

/**
 * What a {@link LogFileWriter} wrote.
 *
 * @param path the file's path, as its {@code OutputFile} names it
 * @param recordCount the number of records of every kind
 * @param fileSizeInBytes the file's size
 * @param deleteCount the number of records that retract their key (-U or -D)
 */
public record LogFileInfo(String path, long recordCount, long fileSizeInBytes, long deleteCount) {
    public LogFileInfo {
        Objects.requireNonNull(path, "path");
    }
}
