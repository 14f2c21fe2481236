package io.weir.flink.catalog.system;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SystemRowsSplitSerializerTest {

    @Test
    void splitsRoundTrip() throws IOException {
        SystemRowsSplit split = new SystemRowsSplit(SystemTable.FILES, "/w/db.db/tä", 42);
        byte[] bytes = SystemRowsSplitSerializer.SPLIT.serialize(split);
        assertThat(SystemRowsSplitSerializer.SPLIT.deserialize(1, bytes)).isEqualTo(split);

        List<SystemRowsSplit> pending =
                List.of(split, new SystemRowsSplit(SystemTable.COMMITS, "/t", 0));
        byte[] all = SystemRowsSplitSerializer.PENDING.serialize(pending);
        assertThat(SystemRowsSplitSerializer.PENDING.deserialize(1, all)).isEqualTo(pending);
        assertThat(
                        SystemRowsSplitSerializer.PENDING.deserialize(
                                1, SystemRowsSplitSerializer.PENDING.serialize(List.of())))
                .isEmpty();
    }

    @Test
    void unknownVersionsFailClearly() {
        assertThatThrownBy(() -> SystemRowsSplitSerializer.SPLIT.deserialize(2, new byte[4]))
                .isInstanceOf(IOException.class)
                .hasMessage("Cannot read a system table split of version 2 (known: 1)");
    }
}
