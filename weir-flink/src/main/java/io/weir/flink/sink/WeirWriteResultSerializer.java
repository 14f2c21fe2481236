package io.weir.flink.sink;

import io.weir.flink.sink.internal.Serialization;

import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Serializes {@link WeirWriteResult}s between the writers and the commit aggregator (and into
 * unaligned-checkpoint channel state).
 *
 * <p>Version 1: the file list (int32 length + UTF-8 JSON of Weir's data file codec).
 */
public final class WeirWriteResultSerializer implements SimpleVersionedSerializer<WeirWriteResult> {
    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(WeirWriteResult result) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            Serialization.writeFiles(out, result.files());
        }
        return bytes.toByteArray();
    }

    @Override
    public WeirWriteResult deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "Cannot read a Weir write result of serializer version "
                            + version
                            + ": this version of Weir reads version "
                            + VERSION);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            return new WeirWriteResult(Serialization.readFiles(in, "a Weir write result"));
        }
    }
}
