package io.weir.flink.source.internal;

import io.weir.ChangeTask;
import io.weir.ScanTask;
import io.weir.expressions.Expressions;
import io.weir.flink.FlinkTypes;
import io.weir.flink.source.StartMode;
import io.weir.flink.source.TestTable;
import io.weir.flink.source.WeirSplit;
import io.weir.io.LocalFileIO;

import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The split reader: batches, resuming after emitted rows, commit order, the limit. */
class WeirSplitReaderTest {
    @TempDir Path dir;

    private TestTable t;

    @BeforeEach
    void writeTable() {
        t = new TestTable(dir, Map.of("bucket", "1"));
        Random random = new Random(5);
        t.randomChanges(random, 30_000, 10_000);
        t.commit();
        t.randomChanges(random, 300, 10_000);
        t.commit();
    }

    @Test
    void resumesASplitAfterTheRowsEmittedBeforeARestore() {
        ScanTask task = t.table.newScan().plan().get(0);
        List<List<Object>> all = readAll(reader(-1), WeirSplit.of(task));
        assertThat(all).hasSizeGreaterThan(WeirSplitReader.MAX_BATCH_ROWS); // several batches
        for (int skip : new int[] {0, 1, 4096, all.size() - 1, all.size()}) {
            assertThat(readAll(reader(-1), WeirSplit.of(task).withRecordsToSkip(skip)))
                    .as("skip %d", skip)
                    .isEqualTo(all.subList(skip, all.size()));
        }
        assertThatThrownBy(
                        () ->
                                readAll(
                                        reader(-1),
                                        WeirSplit.of(task).withRecordsToSkip(all.size() + 1)))
                .hasMessageContaining("Cannot resume Weir split");
    }

    @Test
    void readsOlderCommitsFirst() {
        ScanTask snapshot = t.table.newScan().useSnapshot(1).plan().get(0);
        ChangeTask changes = t.table.newIncrementalScan().between(1, 2).plan().get(0);
        WeirSplitReader reader = reader(-1);
        // Restored splits may come in any order.
        reader.handleSplitsChanges(
                new SplitsAddition<>(List.of(WeirSplit.of(changes), WeirSplit.of(snapshot))));
        List<String> order = new ArrayList<>();
        for (int finished = 0; finished < 2; ) {
            RecordsWithSplitIds<BinaryRowData> batch = reader.fetch();
            String id = batch.nextSplit();
            if (id != null && (order.isEmpty() || !order.get(order.size() - 1).equals(id))) {
                order.add(id);
            }
            finished += batch.finishedSplits().size();
        }
        assertThat(order)
                .containsExactly(WeirSplit.of(snapshot).splitId(), WeirSplit.of(changes).splitId());
    }

    @Test
    void stopsAtTheLimitAcrossSplits() {
        ScanTask task = t.table.newScan().plan().get(0);
        WeirSplitReader reader = reader(10);
        assertThat(readAll(reader, WeirSplit.of(task))).hasSize(10);
        assertThat(readAll(reader, WeirSplit.of(task))).isEmpty();
    }

    private WeirSplitReader reader(long limit) {
        ReadSpec spec =
                new ReadSpec(
                        t.location,
                        LocalFileIO::new,
                        null,
                        Expressions.alwaysTrue(),
                        limit,
                        StartMode.FULL,
                        -1,
                        -1,
                        -1,
                        -1,
                        false,
                        1000,
                        null,
                        0,
                        0,
                        false,
                        false);
        return new WeirSplitReader(new SplitOpener(spec), t.rowType().size());
    }

    private List<List<Object>> readAll(WeirSplitReader reader, WeirSplit split) {
        reader.handleSplitsChanges(new SplitsAddition<>(List.of(split)));
        org.apache.flink.table.types.logical.RowType type = FlinkTypes.toFlink(t.rowType());
        List<List<Object>> rows = new ArrayList<>();
        while (true) {
            RecordsWithSplitIds<BinaryRowData> batch = reader.fetch();
            if (batch.nextSplit() != null) {
                BinaryRowData row;
                while ((row = batch.nextRecordFromSplit()) != null) {
                    rows.add(TestTable.values(row, type));
                }
            }
            if (batch.finishedSplits().contains(split.splitId())) {
                return rows;
            }
        }
    }
}
