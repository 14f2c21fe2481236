package io.weir;

import io.weir.commit.CommitLog;
import io.weir.commit.CommitRequest;
import io.weir.commit.CommitResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

final class BaseAppendFiles implements AppendFiles {
    private final CommitLog log;
    private final List<DataFile> files = new ArrayList<>();
    private final Map<String, String> properties = new LinkedHashMap<>();
    private String writerId;
    private long checkpointId = -1;

    BaseAppendFiles(CommitLog log) {
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
        return log.commit(request.build());
    }
}
