package io.weir.flink.catalog.system;

import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Serializes system-table splits, and lists of them (the enumerator's pending splits). Version 1: a
 * split is its system table's name, the table location (modified UTF-8) and the emitted count.
 */
final class SystemRowsSplitSerializer {
    private static final int VERSION = 1;

    private SystemRowsSplitSerializer() {}

    static final SimpleVersionedSerializer<SystemRowsSplit> SPLIT =
            new SimpleVersionedSerializer<>() {
                @Override
                public int getVersion() {
                    return VERSION;
                }

                @Override
                public byte[] serialize(SystemRowsSplit split) throws IOException {
                    return serializeAll(List.of(split));
                }

                @Override
                public SystemRowsSplit deserialize(int version, byte[] bytes) throws IOException {
                    return deserializeAll(version, bytes).get(0);
                }
            };

    static final SimpleVersionedSerializer<List<SystemRowsSplit>> PENDING =
            new SimpleVersionedSerializer<>() {
                @Override
                public int getVersion() {
                    return VERSION;
                }

                @Override
                public byte[] serialize(List<SystemRowsSplit> splits) throws IOException {
                    return serializeAll(splits);
                }

                @Override
                public List<SystemRowsSplit> deserialize(int version, byte[] bytes)
                        throws IOException {
                    return deserializeAll(version, bytes);
                }
            };

    private static byte[] serializeAll(List<SystemRowsSplit> splits) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(splits.size());
            for (SystemRowsSplit split : splits) {
                out.writeUTF(split.kind().name());
                out.writeUTF(split.location());
                out.writeLong(split.emitted());
            }
        }
        return bytes.toByteArray();
    }

    private static List<SystemRowsSplit> deserializeAll(int version, byte[] bytes)
            throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "Cannot read a system table split of version " + version + " (known: 1)");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int count = in.readInt();
            List<SystemRowsSplit> splits = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                splits.add(
                        new SystemRowsSplit(
                                SystemTable.valueOf(in.readUTF()), in.readUTF(), in.readLong()));
            }
            return splits;
        }
    }
}
