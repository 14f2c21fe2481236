package io.weir.flink.sink;

import io.weir.DataFile;
import io.weir.Partition;
import io.weir.flink.sink.internal.Serialization;

import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Serializes {@link WeirCommittable}s; they live in the committer's checkpointed state, so the
 * format is versioned and must stay readable by later versions.
 *
 * <p>Version 1, big-endian: writer id (string), checkpoint id (int64), kind code (int8),
 * overwritten partitions (int32 count, then per partition an int32 value count and its values as
 * nullable strings), files (string: JSON of Weir's data file codec). A string is an int32 UTF-8
 * byte length (-1 for null) followed by the bytes.
 */
public final class WeirCommittableSerializer implements SimpleVersionedSerializer<WeirCommittable> {
    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(WeirCommittable c) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            Serialization.writeString(out, c.writerId());
            out.writeLong(c.checkpointId());
            out.writeByte(c.kind().code());
            out.writeInt(c.overwritten().size());
            for (Partition p : c.overwritten()) {
                out.writeInt(p.values().size());
                for (String v : p.values()) {
                    Serialization.writeString(out, v);
                }
            }
            Serialization.writeFiles(out, c.files());
        }
        return bytes.toByteArray();
    }

    @Override
    public WeirCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "Cannot read a Weir committable of serializer version "
                            + version
                            + ": this version of Weir reads version "
                            + VERSION);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            String writerId = Serialization.readString(in);
            long checkpointId = in.readLong();
            WeirCommittable.Kind kind;
            try {
                kind = WeirCommittable.Kind.fromCode(in.readByte());
            } catch (IllegalArgumentException e) {
                throw new IOException("Cannot read a Weir committable: " + e.getMessage(), e);
            }
            int partitionCount = in.readInt();
            List<Partition> partitions = new ArrayList<>();
            for (int i = 0; i < partitionCount; i++) {
                int n = in.readInt();
                List<String> values = new ArrayList<>(n);
                for (int k = 0; k < n; k++) {
                    values.add(Serialization.readString(in));
                }
                partitions.add(new Partition(values));
            }
            List<DataFile> files =
                    Serialization.readFiles(
                            in, "the Weir committable of checkpoint " + checkpointId);
            return new WeirCommittable(writerId, checkpointId, kind, partitions, files);
        }
    }
}
