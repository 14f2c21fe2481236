package io.weir.flink.compaction;

import io.weir.CompactionResult;
import io.weir.DataFile;
import io.weir.ScanTask;
import io.weir.Table;
import io.weir.Tables;
import io.weir.WriterLease;
import io.weir.io.FileIO;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.function.SerializableSupplier;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The last task of the {@link CompactionJob} (parallelism 1): gathers every rewritten file group
 * and, at end of input, commits them all as one compaction commit. If a restarted attempt finds its
 * files committed already (the previous attempt failed after the commit), it does nothing.
 */
final class CompactionCommitter extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<byte[], Void>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final SerializableSupplier<FileIO> io;
    private final String location;
    private final int expectedGroups;
    private final String leaseId;
    private final long leaseSince;
    private transient List<ScanTask> inputs;
    private transient List<DataFile> outputs;

    CompactionCommitter(
            SerializableSupplier<FileIO> io,
            String location,
            int expectedGroups,
            WriterLease lease) {
        this.io = io;
        this.location = location;
        this.expectedGroups = expectedGroups;
        this.leaseId = lease.writerId();
        this.leaseSince = lease.oldestFileMillis();
    }

    @Override
    public void open() throws Exception {
        super.open();
        inputs = new ArrayList<>();
        outputs = new ArrayList<>();
    }

    @Override
    public void processElement(StreamRecord<byte[]> element) {
        RewrittenGroup group = RewrittenGroup.fromBytes(element.getValue());
        inputs.add(group.input());
        outputs.addAll(group.outputs());
    }

    @Override
    public void endInput() {
        if (inputs.size() != expectedGroups) {
            throw new IllegalStateException(
                    "Compaction of table "
                            + location
                            + " received "
                            + inputs.size()
                            + " rewritten file groups, expected "
                            + expectedGroups
                            + "; nothing committed");
        }
        Table table = Tables.load(io.get(), location);
        if (alreadyCommitted(table)) {
            LOG.info("The compaction of table {} was committed by an earlier attempt", location);
            return;
        }
        // The commit ends the job's writer lease (the planner also ends it when the job ends).
        CompactionResult result =
                table.newCompaction()
                        .shareLease(new WriterLease(leaseId, leaseSince, 0))
                        .commit(inputs, outputs);
        LOG.info(
                "Compacted {} file groups of table {}: {} files replaced by {}, commit {}",
                result.fileGroups(),
                location,
                result.filesRemoved(),
                result.filesAdded(),
                result.commitId());
    }

    private boolean alreadyCommitted(Table table) {
        if (outputs.isEmpty()) {
            return false;
        }
        Set<String> live = new HashSet<>();
        table.currentSnapshot().files().forEach(f -> live.add(f.path()));
        return outputs.stream().allMatch(f -> live.contains(f.path()));
    }
}
