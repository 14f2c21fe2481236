package io.weir.flink.compaction;

import io.weir.Compaction;
import io.weir.Tables;
import io.weir.WriterLease;
import io.weir.io.FileIO;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.util.function.SerializableSupplier;

/**
 * A task of the {@link CompactionJob}: rewrites planned file groups into new base files, which it
 * does not commit. A failed rewrite deletes its partial files; files of an attempt that finished
 * but whose results were lost to a failover are never committed and become orphans. The job's
 * writer lease (taken where it was planned) covers its outputs; a rewriter renews it, and the
 * committer ends it.
 */
final class GroupRewriter extends RichMapFunction<byte[], byte[]> {
    private static final long serialVersionUID = 1L;

    private final SerializableSupplier<FileIO> io;
    private final String location;
    private final String leaseId;
    private final long leaseSince;
    private transient Compaction compaction;

    GroupRewriter(SerializableSupplier<FileIO> io, String location, WriterLease lease) {
        this.io = io;
        this.location = location;
        this.leaseId = lease.writerId();
        this.leaseSince = lease.oldestFileMillis();
    }

    @Override
    public void open(OpenContext context) {
        compaction =
                Tables.load(io.get(), location)
                        .newCompaction()
                        .shareLease(new WriterLease(leaseId, leaseSince, 0));
    }

    @Override
    public byte[] map(byte[] planned) {
        RewrittenGroup group = RewrittenGroup.fromBytes(planned);
        return new RewrittenGroup(group.input(), compaction.rewrite(group.input())).toBytes();
    }
}
