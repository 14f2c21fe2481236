package io.weir.io;

/** A file found by listing: its full path, size, and modification time in epoch millis. */
public record FileStatus(String path, long length, long modificationTimeMillis) {}
