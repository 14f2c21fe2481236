package io.weir.testing;

import io.weir.io.FileIO;
import io.weir.io.FileStatus;
import io.weir.io.InputFile;
import io.weir.io.LocalFileIO;
import io.weir.io.OutputFile;

import java.io.IOException;
import java.util.List;

/** A {@link FileIO} that delegates to {@link LocalFileIO}; tests override what they observe. */
public class ForwardingFileIO implements FileIO {
    private final FileIO delegate = new LocalFileIO();

    /** The file system this one forwards to, for overrides that forward more than this class. */
    protected final FileIO delegate() {
        return delegate;
    }

    @Override
    public InputFile newInputFile(String path) {
        return delegate.newInputFile(path);
    }

    @Override
    public OutputFile newOutputFile(String path) {
        return delegate.newOutputFile(path);
    }

    @Override
    public boolean exists(String path) throws IOException {
        return delegate.exists(path);
    }

    @Override
    public void delete(String path) throws IOException {
        delegate.delete(path);
    }

    @Override
    public List<FileStatus> list(String directory) throws IOException {
        return delegate.list(directory);
    }

    @Override
    public List<FileStatus> listRecursive(String directory) throws IOException {
        return delegate.listRecursive(directory);
    }

    @Override
    public boolean writeIfAbsent(String path, byte[] content) throws IOException {
        return delegate.writeIfAbsent(path, content);
    }

    @Override
    public void overwrite(String path, byte[] content) throws IOException {
        delegate.overwrite(path, content);
    }

    @Override
    public byte[] readAllBytes(String path) throws IOException {
        return delegate.readAllBytes(path);
    }
}
