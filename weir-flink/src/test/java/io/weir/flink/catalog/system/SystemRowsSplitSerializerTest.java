package io.weir.flink.catalog.system;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SystemRowsSplitSerializerTest {

    @Test
    void splitsRoundTrip() throws IOException {
        SystemRowsSplit split =
                new SystemRowsSplit(
                        SystemTable.FILES,
                        "c.db.t$files",
                        "/w/db.db/tä",
                        Map.of("scan.snapshot-id", "3"),
                        42);
        byte[] bytes = SystemRowsSplitSerializer.SPLIT.serialize(split);
        assertThat(SystemRowsSplitSerializer.SPLIT.deserialize(2, bytes)).isEqualTo(split);

        List<SystemRowsSplit> pending =
                List.of(
                        split,
                        new SystemRowsSplit(SystemTable.COMMITS, "t$commits", "/t", Map.of(), 0));
        byte[] all = SystemRowsSplitSerializer.PENDING.serialize(pending);
        assertThat(SystemRowsSplitSerializer.PENDING.deserialize(2, all)).isEqualTo(pending);
        assertThat(
                        SystemRowsSplitSerializer.PENDING.deserialize(
                                2, SystemRowsSplitSerializer.PENDING.serialize(List.of())))
                .isEmpty();
    }

    @Test
    void version1SplitsAreReadWithoutOptions() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(1);
            out.writeUTF("FILES");
            out.writeUTF("/w/db.db/t");
            out.writeLong(42);
        }
        assertThat(SystemRowsSplitSerializer.SPLIT.deserialize(1, bytes.toByteArray()))
                .isEqualTo(
                        new SystemRowsSplit(
                                SystemTable.FILES, "files", "/w/db.db/t", Map.of(), 42));
    }

    @Test
    void unknownVersionsFailClearly() {
        assertThatThrownBy(() -> SystemRowsSplitSerializer.SPLIT.deserialize(3, new byte[4]))
                .isInstanceOf(IOException.class)
                .hasMessage("Cannot read a system table split of version 3 (known: 1, 2)");
    }
}
