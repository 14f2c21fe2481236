package io.weir.flink.source;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Serializes {@link WeirEnumeratorState}. Version 1: {@code long position, int splitVersion, int
 * count}, then each split as written by {@link WeirSplitSerializer} of {@code splitVersion}.
 * Version 2 appends {@code boolean hasConsumerId, [UTF consumerId], long leaseFloor}; version 1
 * states restore without them (a new consumer id is minted, the floor derives from the state).
 */
public final class WeirEnumeratorStateSerializer
        implements SimpleVersionedSerializer<WeirEnumeratorState> {
    public static final WeirEnumeratorStateSerializer INSTANCE =
            new WeirEnumeratorStateSerializer();

    private static final int VERSION = 2;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(WeirEnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeLong(state.position());
        out.writeInt(WeirSplitSerializer.INSTANCE.getVersion());
        out.writeInt(state.pending().size());
        for (WeirSplit split : state.pending()) {
            WeirSplitSerializer.write(split, out);
        }
        out.writeBoolean(state.consumerId() != null);
        if (state.consumerId() != null) {
            out.writeUTF(state.consumerId());
        }
        out.writeLong(state.leaseFloor());
        return out.getCopyOfBuffer();
    }

    @Override
    public WeirEnumeratorState deserialize(int version, byte[] bytes) throws IOException {
        if (version != 1 && version != VERSION) {
            throw new IOException(
                    "Cannot read Weir enumerator state: unknown serializer version "
                            + version
                            + " (this version reads "
                            + VERSION
                            + ")");
        }
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        long position = in.readLong();
        int splitVersion = in.readInt();
        if (splitVersion != WeirSplitSerializer.INSTANCE.getVersion()) {
            throw new IOException(
                    "Cannot read Weir enumerator state: unknown split version " + splitVersion);
        }
        int count = in.readInt();
        List<WeirSplit> pending = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            pending.add(WeirSplitSerializer.read(in));
        }
        if (version == 1) {
            return new WeirEnumeratorState(position, pending);
        }
        String consumerId = in.readBoolean() ? in.readUTF() : null;
        return new WeirEnumeratorState(position, pending, consumerId, in.readLong());
    }
}
