package io.weir.flink.compaction;

import io.weir.DataFile;
import io.weir.ScanTask;
import io.weir.flink.source.WeirSplit;
import io.weir.flink.source.WeirSplitSerializer;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A file group planned for compaction and the base files it was rewritten into (none yet before the
 * rewrite), as bytes between the tasks of a {@link CompactionJob}: each part is written as a
 * snapshot split by {@link WeirSplitSerializer}, so no generic (Kryo) type is in the job.
 *
 * @param input the planned group and its files
 * @param outputs the new base files, not yet committed
 */
public record RewrittenGroup(ScanTask input, List<DataFile> outputs) {
    public RewrittenGroup {
        outputs = List.copyOf(outputs);
    }

    public byte[] toBytes() {
        try {
            DataOutputSerializer out = new DataOutputSerializer(1024);
            out.writeInt(WeirSplitSerializer.INSTANCE.getVersion());
            writeSplit(WeirSplit.of(input), out);
            ScanTask written = new ScanTask(input.snapshotId(), input.fileGroup(), outputs);
            writeSplit(WeirSplit.of(written), out);
            return out.getCopyOfBuffer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RewrittenGroup fromBytes(byte[] bytes) {
        try {
            DataInputDeserializer in = new DataInputDeserializer(bytes);
            int version = in.readInt();
            ScanTask input = readSplit(version, in).scanTask();
            ScanTask written = readSplit(version, in).scanTask();
            return new RewrittenGroup(input, written.files());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeSplit(WeirSplit split, DataOutputSerializer out) throws IOException {
        byte[] bytes = WeirSplitSerializer.INSTANCE.serialize(split);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static WeirSplit readSplit(int version, DataInputDeserializer in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return WeirSplitSerializer.INSTANCE.deserialize(version, bytes);
    }
}
