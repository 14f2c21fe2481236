package io.weir.hadoop;

import io.weir.io.PositionOutputStream;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.ipc.RemoteException;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;

/**
 * A new file on HDFS, streamed: the client sends each packet (64 KiB) down the DataNode pipeline as
 * it fills, so nothing spills to local disk and memory stays at a few packets however large the
 * file. {@link #close} syncs the blocks to the DataNodes' disks (hsync) before completing the file,
 * as LocalFileIO forces its files: a commit may reference the file as soon as close returns.
 */
final class HadoopOutputStream extends PositionOutputStream {
    // The HDFS NameNode's name for "being written by another client", sent as a RemoteException.
    private static final String ALREADY_BEING_CREATED =
            "org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException";

    private final FSDataOutputStream out;
    private final String path;
    private boolean closed;

    private HadoopOutputStream(FSDataOutputStream out, String path) {
        this.out = out;
        this.path = path;
    }

    /** Creates {@code file}; fails with {@link FileAlreadyExistsException} if it exists. */
    static PositionOutputStream create(FileSystem fs, Path file, String path) throws IOException {
        try {
            if (fs instanceof WebHdfsFileSystem && fs.exists(file)) {
                // WebHDFS creates the file when the upload ends (at close), so only then would
                // the NameNode refuse it. Data files have unique names: checking first is enough
                // to fail here, as the contract says, and close still fails if one appeared.
                throw new org.apache.hadoop.fs.FileAlreadyExistsException(path);
            }
            // overwrite = false: the NameNode refuses an existing file (and creates parents)
            return new HadoopOutputStream(fs.create(file, false), path);
        } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
            throw exists(path, e);
        } catch (RemoteException e) {
            if (ALREADY_BEING_CREATED.equals(e.getClassName())
                    || org.apache.hadoop.fs.FileAlreadyExistsException.class
                            .getName()
                            .equals(e.getClassName())) {
                throw exists(path, e);
            }
            throw HadoopErrors.translate(e, "create", path);
        } catch (IOException e) {
            if (ALREADY_BEING_CREATED.equals(e.getClass().getName())) {
                throw exists(path, e);
            }
            throw HadoopErrors.translate(e, "create", path);
        }
    }

    private static FileAlreadyExistsException exists(String path, IOException cause) {
        FileAlreadyExistsException e = new FileAlreadyExistsException(path);
        e.initCause(cause);
        return e;
    }

    /** The bytes written so far: exact, as the client counts them. */
    @Override
    public long getPos() {
        return out.getPos();
    }

    @Override
    public void write(int b) throws IOException {
        checkOpen();
        out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        checkOpen();
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "write", path);
        }
    }

    @Override
    public void flush() throws IOException {
        checkOpen();
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        try {
            out.hsync();
        } catch (IOException e) {
            failure = e;
        }
        try {
            // completes the file at the NameNode (waits for the last block's minimum replicas)
            out.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            } else if (e != failure) {
                failure.addSuppressed(e);
            }
        }
        if (failure instanceof org.apache.hadoop.fs.FileAlreadyExistsException) {
            throw exists(path, failure);
        }
        if (failure != null) {
            throw HadoopErrors.translate(failure, "write", path);
        }
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream closed: " + path);
        }
    }
}
