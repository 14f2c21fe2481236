package io.weir.commit;

import io.weir.CommitKind;
import io.weir.CommitResult;
import io.weir.DataFile;
import io.weir.OverwriteFiles;
import io.weir.Partition;
import io.weir.exceptions.ValidationException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

public final class OverwriteFilesImpl implements OverwriteFiles {
    private final CommitLog log;
    private final List<DataFile> files = new ArrayList<>();
    private final Set<Partition> partitions = new LinkedHashSet<>();
    private boolean all;
    private String writerId;
    private long checkpointId = -1;

    public OverwriteFilesImpl(CommitLog log) {
        this.log = log;
    }

    @Override
    public OverwriteFiles addFiles(Collection<DataFile> newFiles) {
        files.addAll(newFiles);
        return this;
    }

    @Override
    public OverwriteFiles overwritePartition(Partition partition) {
        partitions.add(partition);
        return this;
    }

    @Override
    public OverwriteFiles overwriteAll() {
        all = true;
        return this;
    }

    @Override
    public OverwriteFiles identity(String writer, long checkpoint) {
        this.writerId = writer;
        this.checkpointId = checkpoint;
        return this;
    }

    @Override
    public CommitResult commit() {
        ValidationException.check(
                all || !partitions.isEmpty(),
                "Cannot overwrite table %s: no partition to overwrite was given",
                log.location());
        if (!all) {
            for (DataFile f : files) {
                ValidationException.check(
                        partitions.contains(f.partition()),
                        "Cannot overwrite partitions %s of table %s with file %s of partition %s",
                        partitions,
                        log.location(),
                        f.path(),
                        f.partition());
            }
        }
        CommitRequest.Builder request =
                CommitRequest.builder(CommitKind.OVERWRITE).add(files).verifyAddedFiles();
        if (all) {
            request.overwriteAll();
        } else {
            request.overwritePartitions(partitions);
        }
        if (writerId != null) {
            request.writer(writerId, checkpointId);
        }
        CommitOutcome outcome = log.commit(request.build());
        return new CommitResult(outcome.commit(), outcome.alreadyCommitted());
    }
}
