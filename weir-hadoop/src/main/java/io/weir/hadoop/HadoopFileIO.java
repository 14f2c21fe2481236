package io.weir.hadoop;

import io.weir.io.FileIO;
import io.weir.io.FileStatus;
import io.weir.io.InputFile;
import io.weir.io.OutputFile;
import io.weir.io.PositionOutputStream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.viewfs.ViewFileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link FileIO} over Hadoop's {@link FileSystem}: HDFS ({@code hdfs:}), a federated view of it
 * ({@code viewfs:}) and its REST gateway ({@code webhdfs:}, {@code swebhdfs:}). Get it from {@link
 * io.weir.io.FileIOs}; {@link HadoopFileIOProvider} makes it.
 *
 * <p>{@link #writeIfAbsent} writes a temporary file next to the target and renames it to the target
 * without replacing: the NameNode does that rename atomically and refuses it if the target exists,
 * so exactly one of concurrent writers wins and the target appears complete or not at all
 * (docs/hdfs.md says why creating the target directly would not do).
 *
 * <p>One {@link FileSystem} per scheme and authority (NameNode or nameservice), made for this
 * instance and kept: never Hadoop's JVM-wide cache, which keys on the authority and user only and
 * would hand two sets of storage options the first one's configuration.
 */
public final class HadoopFileIO implements FileIO {
    private final Configuration conf;
    private final Map<URI, FileSystem> fileSystems = new ConcurrentHashMap<>();

    /**
     * @param conf the Hadoop configuration; copied, later changes to it change nothing here
     */
    public HadoopFileIO(Configuration conf) {
        this.conf = new Configuration(conf);
    }

    /** A copy of the configuration this file system uses. */
    public Configuration configuration() {
        return new Configuration(conf);
    }

    @Override
    public InputFile newInputFile(String path) {
        return new HadoopInputFile(this, path, toPath(path));
    }

    @Override
    public OutputFile newOutputFile(String path) {
        Path p = toPath(path);
        return new OutputFile() {
            @Override
            public String path() {
                return path;
            }

            @Override
            public PositionOutputStream create() throws IOException {
                return HadoopOutputStream.create(fs(path, p), p, path);
            }
        };
    }

    @Override
    public boolean exists(String path) throws IOException {
        Path p = toPath(path);
        try {
            return fs(path, p).exists(p);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "check", path);
        }
    }

    @Override
    public void delete(String path) throws IOException {
        Path p = toPath(path);
        try {
            // false if there was nothing: not an error
            fs(path, p).delete(p, false);
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "delete", path);
        }
    }

    @Override
    public List<FileStatus> list(String directory) throws IOException {
        Path dir = toPath(directory);
        String prefix = directory.endsWith("/") ? directory : directory + "/";
        List<FileStatus> out = new ArrayList<>();
        try {
            FileSystem fs = fs(directory, dir);
            Path self = fs.makeQualified(dir);
            RemoteIterator<org.apache.hadoop.fs.FileStatus> it = listing(fs, dir);
            while (it != null && it.hasNext()) {
                org.apache.hadoop.fs.FileStatus s = it.next();
                // listing a file yields the file itself, which is not its own child
                if (s.isFile() && !s.getPath().equals(self)) {
                    out.add(status(prefix + s.getPath().getName(), s));
                }
            }
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "list", directory);
        }
        return out;
    }

    @Override
    public List<FileStatus> listRecursive(String directory) throws IOException {
        Path dir = toPath(directory);
        String prefix = directory.endsWith("/") ? directory : directory + "/";
        List<FileStatus> out = new ArrayList<>();
        // A walk of our own rather than FileSystem.listFiles(dir, true), which fails as a whole
        // when a directory vanishes between being listed and being entered (an expiry or cleaner
        // removing a partition meanwhile); here such a directory is simply not there, as in
        // LocalFileIO. It costs the same: one paged listing per directory.
        Deque<String> pending = new ArrayDeque<>();
        pending.add("");
        try {
            FileSystem fs = fs(directory, dir);
            Path self = fs.makeQualified(dir);
            while (!pending.isEmpty()) {
                String relative = pending.poll();
                Path current = relative.isEmpty() ? dir : new Path(dir, relative);
                RemoteIterator<org.apache.hadoop.fs.FileStatus> it = listing(fs, current);
                try {
                    while (it != null && it.hasNext()) {
                        org.apache.hadoop.fs.FileStatus s = it.next();
                        String name = relative + s.getPath().getName();
                        if (s.isDirectory()) {
                            pending.add(name + "/");
                        } else if (s.isFile() && !s.getPath().equals(self)) {
                            out.add(status(prefix + name, s));
                        }
                    }
                } catch (FileNotFoundException e) {
                    // the directory went away while we paged through it
                }
            }
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "list", directory);
        }
        return out;
    }

    @Override
    public List<String> listDirectories(String directory) throws IOException {
        Path dir = toPath(directory);
        String prefix = directory.endsWith("/") ? directory : directory + "/";
        List<String> out = new ArrayList<>();
        try {
            RemoteIterator<org.apache.hadoop.fs.FileStatus> it = listing(fs(directory, dir), dir);
            while (it != null && it.hasNext()) {
                org.apache.hadoop.fs.FileStatus s = it.next();
                if (s.isDirectory()) {
                    out.add(prefix + s.getPath().getName());
                }
            }
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "list", directory);
        }
        out.sort(null);
        return out;
    }

    @Override
    public boolean writeIfAbsent(String path, byte[] content) throws IOException {
        Path target = toPath(path);
        try {
            FileSystem fs = fs(path, target);
            if (fs.exists(target)) {
                return false;
            }
            Path tmp = writeTemp(fs, target, content);
            boolean renamed = false;
            try {
                rename(fs, tmp, target, Options.Rename.NONE);
                renamed = true;
                return true;
            } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
                return false;
            } finally {
                // After a successful rename there is nothing left to delete (a NameNode call
                // saved per commit); after an I/O error whose outcome is unknown, deleting the
                // temporary name cannot undo a rename that happened.
                if (!renamed) {
                    deleteQuietly(fs, tmp);
                }
            }
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "create", path);
        }
    }

    @Override
    public void overwrite(String path, byte[] content) throws IOException {
        Path target = toPath(path);
        try {
            FileSystem fs = fs(path, target);
            Path tmp = writeTemp(fs, target, content);
            boolean renamed = false;
            try {
                // replaces the target in one NameNode operation: readers see old or new
                rename(fs, tmp, target, Options.Rename.OVERWRITE);
                renamed = true;
            } finally {
                if (!renamed) {
                    deleteQuietly(fs, tmp);
                }
            }
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "overwrite", path);
        }
    }

    /**
     * Renames {@code from} to {@code to} in one NameNode operation, failing with {@link
     * java.nio.file.FileAlreadyExistsException} if {@code to} exists. The parent of {@code to} is
     * created first, as in LocalFileIO.
     */
    @Override
    public void renameDirectory(String from, String to) throws IOException {
        Path source = toPath(from);
        Path target = toPath(to);
        try {
            FileSystem fs = fs(from, source);
            if (!fs.exists(source)) {
                throw new java.nio.file.NoSuchFileException(from);
            }
            if (target.getParent() != null) {
                fs.mkdirs(target.getParent());
            }
            rename(fs, source, target, Options.Rename.NONE);
        } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
            java.nio.file.FileAlreadyExistsException f =
                    new java.nio.file.FileAlreadyExistsException(to);
            f.initCause(e);
            throw f;
        } catch (IOException e) {
            throw HadoopErrors.translate(e, "rename " + from + " to", to);
        }
    }

    /**
     * Writes {@code content} to a new temporary file next to {@code target}, named as {@link
     * io.weir.io.LocalFileIO} names them ({@code .<name>.<uuid>.tmp}, which Weir's metadata
     * listings skip), and syncs it to the DataNodes' disks before it can be published.
     */
    private static Path writeTemp(FileSystem fs, Path target, byte[] content) throws IOException {
        Path tmp =
                new Path(
                        target.getParent(),
                        "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
        boolean written = false;
        try (FSDataOutputStream out = fs.create(tmp, false)) {
            out.write(content);
            out.hsync();
            written = true;
        } finally {
            if (!written) {
                deleteQuietly(fs, tmp);
            }
        }
        return tmp;
    }

    /**
     * Rename with the semantics of {@link Options.Rename}: {@code NONE} fails with Hadoop's
     * FileAlreadyExistsException if the target exists (file or directory), {@code OVERWRITE}
     * replaces a file. The two-argument {@code FileSystem.rename} is not used: it moves the source
     * into the target when the target is a directory and reports success.
     */
    private void rename(FileSystem fs, Path from, Path to, Options.Rename mode) throws IOException {
        if (fs instanceof DistributedFileSystem dfs) {
            dfs.rename(from, to, mode);
        } else if (fs instanceof WebHdfsFileSystem web) {
            // one RENAME request; the NameNode does the same atomic rename
            web.rename(from, to, mode);
        } else if (fs instanceof ViewFileSystem) {
            // A mount table: rename on the file system the paths are mounted from. Both lie in
            // one directory, hence under one mount point.
            Path resolvedParent = fs.resolvePath(to.getParent());
            Path fromResolved = new Path(fs.resolvePath(from.getParent()), from.getName());
            Path toResolved = new Path(resolvedParent, to.getName());
            FileSystem target = fs(toResolved.toString(), toResolved);
            if (target instanceof ViewFileSystem) {
                throw new IOException("viewfs mount of " + to + " resolves to itself");
            }
            rename(target, fromResolved, toResolved, mode);
        } else {
            throw new IOException(
                    "No atomic rename on "
                            + fs.getUri()
                            + " ("
                            + fs.getClass().getSimpleName()
                            + "): Weir's HDFS file system commits only on HDFS, WebHDFS, or viewfs"
                            + " mounts of them");
        }
    }

    private static void deleteQuietly(FileSystem fs, Path p) {
        try {
            fs.delete(p, false);
        } catch (IOException | RuntimeException e) {
            // a leftover temporary file is harmless: listings skip it, cleaning removes it
        }
    }

    /** The listing of a directory, or null if it does not exist. */
    private static RemoteIterator<org.apache.hadoop.fs.FileStatus> listing(FileSystem fs, Path dir)
            throws IOException {
        try {
            return fs.listStatusIterator(dir);
        } catch (FileNotFoundException e) {
            return null;
        }
    }

    private static FileStatus status(String path, org.apache.hadoop.fs.FileStatus s) {
        return new FileStatus(path, s.getLen(), s.getModificationTime());
    }

    static Path toPath(String path) {
        if (path == null || path.isEmpty()) {
            throw new IllegalArgumentException("Empty path");
        }
        return new Path(path);
    }

    /** The file system of a path: one per scheme and authority, made on first use. */
    FileSystem fs(String path, Path p) throws IOException {
        URI uri = p.toUri();
        String scheme = uri.getScheme();
        if (scheme == null) {
            throw new IllegalArgumentException(
                    "Not an HDFS location: '"
                            + path
                            + "' (expected e.g. hdfs://namenode:8020/lake/table)");
        }
        String authority = uri.getAuthority() == null ? "" : uri.getAuthority();
        URI key = URI.create(scheme.toLowerCase(Locale.ROOT) + "://" + authority + "/");
        FileSystem fs = fileSystems.get(key);
        if (fs == null) {
            // Made outside the map's lock (it may resolve hosts); a racing loser is closed.
            FileSystem made = HadoopErrors.open(key, path, conf);
            fs = fileSystems.putIfAbsent(key, made);
            if (fs == null) {
                fs = made;
            } else {
                made.close();
            }
        }
        return fs;
    }
}
