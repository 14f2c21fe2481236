package io.weir.flink.catalog.system;

import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Serializes system-table splits, and lists of them (the enumerator's pending splits). Version 2: a
 * split is its system table's kind, SQL name, the table location, the options (count, then key and
 * value), all modified UTF-8, and the emitted count. Version 1 (kind, location, emitted) is read as
 * a split without options.
 */
final class SystemRowsSplitSerializer {
    private static final int VERSION = 2;

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
                out.writeUTF(split.name());
                out.writeUTF(split.location());
                out.writeInt(split.options().size());
                for (Map.Entry<String, String> e : new TreeMap<>(split.options()).entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeUTF(e.getValue());
                }
                out.writeLong(split.emitted());
            }
        }
        return bytes.toByteArray();
    }

    private static List<SystemRowsSplit> deserializeAll(int version, byte[] bytes)
            throws IOException {
        if (version != 1 && version != VERSION) {
            throw new IOException(
                    "Cannot read a system table split of version " + version + " (known: 1, 2)");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int count = in.readInt();
            List<SystemRowsSplit> splits = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                SystemTable kind = SystemTable.valueOf(in.readUTF());
                if (version == 1) {
                    String location = in.readUTF();
                    splits.add(
                            new SystemRowsSplit(
                                    kind, kind.suffix(), location, Map.of(), in.readLong()));
                    continue;
                }
                String name = in.readUTF();
                String location = in.readUTF();
                int options = in.readInt();
                Map<String, String> map = new TreeMap<>();
                for (int j = 0; j < options; j++) {
                    map.put(in.readUTF(), in.readUTF());
                }
                splits.add(new SystemRowsSplit(kind, name, location, map, in.readLong()));
            }
            return splits;
        }
    }
}
