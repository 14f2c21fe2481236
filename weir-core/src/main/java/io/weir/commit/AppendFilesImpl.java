package io.weir.commit;

import io.weir.AppendFiles;
import io.weir.CommitKind;
import io.weir.CommitResult;
import io.weir.DataFile;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class AppendFilesImpl implements AppendFiles {
    private final CommitLog log;
    private final List<DataFile> files = new ArrayList<>();
    private final Map<String, String> properties = new LinkedHashMap<>();
    private String writerId;
    private long checkpointId = -1;

    public AppendFilesImpl(CommitLog log) {
        this.log = log;
    }

    @Override
    public AppendFiles addFile(DataFile file) {
        files.add(file);
        return this;
    }

    @Override
    public AppendFiles addFiles(Collection<DataFile> newFiles) {
        files.addAll(newFiles);
        return this;
    }

    @Override
    public AppendFiles identity(String writer, long checkpoint) {
        this.writerId = writer;
        this.checkpointId = checkpoint;
        return this;
    }

    @Override
    public AppendFiles set(String key, String value) {
        properties.put(key, value);
        return this;
    }

    @Override
    public CommitResult commit() {
        CommitRequest.Builder request =
                CommitRequest.builder(CommitKind.APPEND)
                        .add(files)
                        .properties(properties)
                        .verifyAddedFiles();
        if (writerId != null) {
            request.writer(writerId, checkpointId);
        }
        CommitOutcome outcome = log.commit(request.build());
        return new CommitResult(outcome.commit(), outcome.alreadyCommitted());
    }
}
