package io.weir.flink.source;

import io.weir.ChangeTask;
import io.weir.DataFile;
import io.weir.DataFilesParser;
import io.weir.FileGroupId;
import io.weir.Partition;
import io.weir.ScanTask;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Serializes {@link WeirSplit}s for checkpoints and for the enumerator-to-reader RPC.
 *
 * <p>Version 1: {@code byte kind (0 snapshot, 1 changes), long recordsToSkip}, then for a snapshot
 * {@code long snapshotId, group, files} and for changes {@code long from, long to, group,
 * filesBefore, filesAfter}. A group is {@code int valueCount, (boolean present, string value)*, int
 * bucket}; file lists are {@link DataFilesParser} JSON; a string is {@code int length} and its
 * UTF-8 bytes.
 */
public final class WeirSplitSerializer implements SimpleVersionedSerializer<WeirSplit> {
    public static final WeirSplitSerializer INSTANCE = new WeirSplitSerializer();

    private static final int VERSION = 1;
    private static final byte SNAPSHOT = 0;
    private static final byte CHANGES = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(WeirSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public WeirSplit deserialize(int version, byte[] bytes) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "Cannot read Weir split: unknown serializer version "
                            + version
                            + " (this version reads "
                            + VERSION
                            + ")");
        }
        return read(new DataInputDeserializer(bytes));
    }

    static void write(WeirSplit split, DataOutputView out) throws IOException {
        if (split.isSnapshot()) {
            ScanTask task = split.scanTask();
            out.writeByte(SNAPSHOT);
            out.writeLong(split.recordsToSkip());
            out.writeLong(task.snapshotId());
            writeGroup(task.fileGroup(), out);
            writeFiles(task.files(), out);
        } else {
            ChangeTask task = split.changeTask();
            out.writeByte(CHANGES);
            out.writeLong(split.recordsToSkip());
            out.writeLong(task.fromSnapshotId());
            out.writeLong(task.toSnapshotId());
            writeGroup(task.fileGroup(), out);
            writeFiles(task.filesBefore(), out);
            writeFiles(task.filesAfter(), out);
        }
    }

    static WeirSplit read(DataInputView in) throws IOException {
        byte kind = in.readByte();
        long skip = in.readLong();
        WeirSplit split;
        if (kind == SNAPSHOT) {
            long snapshotId = in.readLong();
            FileGroupId group = readGroup(in);
            split = WeirSplit.of(new ScanTask(snapshotId, group, readFiles(in)));
        } else if (kind == CHANGES) {
            long from = in.readLong();
            long to = in.readLong();
            FileGroupId group = readGroup(in);
            List<DataFile> before = readFiles(in);
            List<DataFile> after = readFiles(in);
            split = WeirSplit.of(new ChangeTask(from, to, group, before, after));
        } else {
            throw new IOException("Cannot read Weir split: unknown split kind " + kind);
        }
        return split.withRecordsToSkip(skip);
    }

    private static void writeGroup(FileGroupId group, DataOutputView out) throws IOException {
        List<String> values = group.partition().values();
        out.writeInt(values.size());
        for (String v : values) {
            out.writeBoolean(v != null);
            if (v != null) {
                writeString(v, out);
            }
        }
        out.writeInt(group.bucket());
    }

    private static FileGroupId readGroup(DataInputView in) throws IOException {
        int count = in.readInt();
        List<String> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(in.readBoolean() ? readString(in) : null);
        }
        return new FileGroupId(new Partition(values), in.readInt());
    }

    private static void writeFiles(List<DataFile> files, DataOutputView out) throws IOException {
        writeString(DataFilesParser.toJson(files), out);
    }

    private static List<DataFile> readFiles(DataInputView in) throws IOException {
        return DataFilesParser.fromJson("Weir split", readString(in));
    }

    // writeUTF is limited to 64 KB; a file list can be longer.
    private static void writeString(String s, DataOutputView out) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputView in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
