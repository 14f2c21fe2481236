package io.weir.flink.sink;

import io.weir.DataFile;
import io.weir.Partition;

import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Round trips of the persisted types: committables live in checkpoints, write results in flight.
 */
class SerializersTest {
    private final WeirCommittableSerializer committables = new WeirCommittableSerializer();
    private final WeirWriteResultSerializer results = new WeirWriteResultSerializer();

    private static List<DataFile> files(int n) {
        List<DataFile> files = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            files.add(TestFiles.full(i));
        }
        return files;
    }

    private WeirCommittable roundTrip(WeirCommittable c) throws IOException {
        byte[] bytes = SimpleVersionedSerialization.writeVersionAndSerialize(committables, c);
        return SimpleVersionedSerialization.readVersionAndDeSerialize(committables, bytes);
    }

    @Test
    void committablesRoundTrip() throws IOException {
        List<WeirCommittable> cases =
                List.of(
                        WeirCommittable.append("weir-job-op-1a2b", 7, files(3)),
                        WeirCommittable.append("w", 0, List.of()),
                        new WeirCommittable(
                                "w",
                                Long.MAX_VALUE,
                                WeirCommittable.Kind.OVERWRITE_ALL,
                                List.of(),
                                List.of()),
                        new WeirCommittable(
                                "wé",
                                3,
                                WeirCommittable.Kind.OVERWRITE_PARTITIONS,
                                List.of(
                                        Partition.of("2024-01-01", "a"),
                                        new Partition(Arrays.asList(null, "b")),
                                        Partition.UNPARTITIONED),
                                files(2)));
        for (WeirCommittable c : cases) {
            assertThat(roundTrip(c)).isEqualTo(c);
        }
    }

    /** Far beyond {@code writeUTF}'s 64 KB. */
    @Test
    void largeFileListsRoundTrip() throws IOException {
        WeirCommittable c = WeirCommittable.append("w", 1, files(2000));
        assertThat(committables.serialize(c).length).isGreaterThan(4 << 16);
        assertThat(roundTrip(c)).isEqualTo(c);
        WeirWriteResult r = new WeirWriteResult(files(2000));
        assertThat(results.deserialize(results.getVersion(), results.serialize(r))).isEqualTo(r);
    }

    @Test
    void writeResultsRoundTrip() throws IOException {
        for (WeirWriteResult r :
                List.of(new WeirWriteResult(List.of()), new WeirWriteResult(files(5)))) {
            byte[] bytes = SimpleVersionedSerialization.writeVersionAndSerialize(results, r);
            assertThat(SimpleVersionedSerialization.readVersionAndDeSerialize(results, bytes))
                    .isEqualTo(r);
        }
    }

    @Test
    void unknownVersionsAndCorruptBytesFailClearly() throws IOException {
        byte[] bytes = committables.serialize(WeirCommittable.append("w", 1, files(1)));
        assertThatThrownBy(() -> committables.deserialize(2, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> results.deserialize(9, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 9");
        byte[] cut = Arrays.copyOf(bytes, bytes.length - 10);
        assertThatThrownBy(() -> committables.deserialize(1, cut)).isInstanceOf(IOException.class);
    }

    /** The committable's string goes into Flink's failure messages: it must stay short. */
    @Test
    void committableStringIsShort() {
        assertThat(WeirCommittable.append("w", 4, files(500)).toString())
                .isEqualTo("WeirCommittable{writer=w, checkpoint=4, kind=APPEND, files=500}");
    }
}
