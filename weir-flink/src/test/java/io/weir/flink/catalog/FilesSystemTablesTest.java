package io.weir.flink.catalog;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Partition;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code t$files}, {@code t$partitions} and {@code t$buckets}: the live files of a snapshot. */
class FilesSystemTablesTest extends SystemTablesFixture {
    @Test
    void filesShowTheLiveFilesOfTheLatestSnapshot() throws Exception {
        makeCommits();
        DataFile baseOfA = table.commit(3).added().get(0);
        DataFile logOfB = table.commit(4).added().get(0);
        assertThat(baseOfA.partition()).isEqualTo(Partition.of("a"));
        assertThat(baseOfA.kind()).isEqualTo(FileKind.BASE);
        assertThat(logOfB.kind()).isEqualTo(FileKind.LOG);
        assertThat(query("SELECT * FROM c.db.`t$files` ORDER BY partition_path"))
                .containsExactly(fileRow(baseOfA), fileRow(logOfB));
    }

    @Test
    void filesPartitionsAndBucketsHonourTheSnapshotOption() throws Exception {
        makeCommits();
        List<DataFile> two = new ArrayList<>(table.commit(1).added());
        two.addAll(table.commit(2).added());
        List<List<Object>> expected = new ArrayList<>();
        for (DataFile f : two) {
            expected.add(fileRow(f));
        }
        assertThat(
                        query(
                                "SELECT * FROM c.db.`t$files` /*+ OPTIONS('scan.snapshot-id' ="
                                        + " '2') */"))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(
                        query(
                                "SELECT * FROM c.db.`t$files` /*+ OPTIONS('scan.timestamp' = '"
                                        + table.commit(2).timestampMillis()
                                        + "') */"))
                .containsExactlyInAnyOrderElementsOf(expected);
        // Snapshot 2: partition a has a log of each append, b too.
        List<DataFile> a =
                two.stream().filter(f -> f.partition().equals(Partition.of("a"))).toList();
        List<DataFile> b =
                two.stream().filter(f -> f.partition().equals(Partition.of("b"))).toList();
        assertThat(
                        query(
                                "SELECT * FROM c.db.`t$buckets` /*+ OPTIONS('scan.snapshot-id' ="
                                        + " '2') */ ORDER BY partition_path"))
                .containsExactly(
                        row("dt=a", 0, 0, 2, 3L, sizes(a), time(2)),
                        row("dt=b", 0, 0, 2, 2L, sizes(b), time(2)));
        assertThat(
                        query(
                                "SELECT * FROM c.db.`t$partitions` /*+ OPTIONS('scan.snapshot-id' ="
                                        + " '1') */ ORDER BY partition_path"))
                .containsExactly(
                        row("dt=a", 2L, size(table.commit(1).added().get(0)), 1L, time(1), 1),
                        row("dt=b", 1L, size(table.commit(1).added().get(1)), 1L, time(1), 1));
    }
}
