package io.weir.options;

/** Compression of log block payloads. The ids are stored in block headers (docs/format.md). */
public enum LogCodec {
    NONE(0),
    LZ4(1),
    ZSTD(2);

    private final int id;

    LogCodec(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    /** The codec with this id, or null if the id is unknown (the caller reports the file). */
    public static LogCodec fromId(int id) {
        for (LogCodec codec : values()) {
            if (codec.id == id) {
                return codec;
            }
        }
        return null;
    }
}
