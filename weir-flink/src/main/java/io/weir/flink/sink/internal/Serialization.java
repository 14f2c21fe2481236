package io.weir.flink.sink.internal;

import io.weir.DataFile;
import io.weir.DataFilesParser;
import io.weir.exceptions.CorruptFileException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Field codecs shared by the sink's versioned serializers. Strings are length-prefixed UTF-8 (not
 * {@code writeUTF}, which stops at 64 KB: a file list may be larger). File lists use Weir's JSON
 * codec of data files, the same encoding as in commit files.
 */
public final class Serialization {
    private Serialization() {}

    /** Writes a string, or null, as an int32 byte length (-1 for null) and its UTF-8 bytes. */
    public static void writeString(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    public static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < -1) {
            throw new IOException("Corrupt string length " + length);
        }
        if (length == -1) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    public static void writeFiles(DataOutputStream out, List<DataFile> files) throws IOException {
        writeString(out, DataFilesParser.toJson(files));
    }

    /**
     * @param what what is being read, for the error message
     */
    public static List<DataFile> readFiles(DataInputStream in, String what) throws IOException {
        String json = readString(in);
        if (json == null) {
            throw new IOException("Cannot read the files of " + what + ": the list is missing");
        }
        try {
            return DataFilesParser.fromJson(what, json);
        } catch (CorruptFileException e) {
            throw new IOException("Cannot read the files of " + what + ": " + e.getMessage(), e);
        }
    }
}
