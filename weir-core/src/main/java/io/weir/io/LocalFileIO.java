package io.weir.io;

import java.io.BufferedOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * {@link FileIO} on the local file system. Accepts plain paths and {@code file:} URIs. Get it from
 * {@link FileIOs}; constructing it is for tests of this class and for local scratch files. {@link
 * #writeIfAbsent} writes a temporary file and hard-links it to the target: {@code link(2)} fails if
 * the target exists, across processes, and the target appears complete or not at all.
 */
public final class LocalFileIO implements FileIO {
    private final boolean directIo;

    /**
     * Writes new files ({@link #newOutputFile}) and reads files once ({@link
     * InputFile#newUncachedStream()}) with direct I/O where the file system takes it.
     */
    public LocalFileIO() {
        this(true);
    }

    /**
     * @param directIo whether {@link #newOutputFile}'s streams and {@link
     *     InputFile#newUncachedStream()} use direct I/O (bypassing the page cache) where the file
     *     system takes it, or always the page cache
     */
    public LocalFileIO(boolean directIo) {
        this.directIo = directIo;
    }

    public static Path toPath(String path) {
        if (path.startsWith("file:")) {
            return Paths.get(URI.create(path));
        }
        return Paths.get(path);
    }

    @Override
    public InputFile newInputFile(String path) {
        return new LocalInputFile(path, toPath(path), directIo);
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
                FileChannel channel = createNew(p);
                PositionOutputStream direct =
                        directIo ? DirectOutputStream.openOrNull(p, channel) : null;
                return direct != null ? direct : new LocalOutputStream(channel);
            }
        };
    }

    @Override
    public boolean exists(String path) {
        return Files.exists(toPath(path));
    }

    @Override
    public void delete(String path) throws IOException {
        Files.deleteIfExists(toPath(path));
    }

    @Override
    public List<FileStatus> list(String directory) throws IOException {
        Path dir = toPath(directory);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<FileStatus> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                FileStatus status = Files.isRegularFile(p) ? status(directory, p) : null;
                if (status != null) {
                    out.add(status);
                }
            }
        }
        return out;
    }

    @Override
    public List<FileStatus> listRecursive(String directory) throws IOException {
        Path dir = toPath(directory);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        String sep = directory.endsWith("/") ? "" : "/";
        List<FileStatus> out = new ArrayList<>();
        // Files come and go while we walk (temporary files of commits, released leases): one that
        // vanished between being listed and being looked at is simply not there.
        Files.walkFileTree(
                dir,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        if (attrs.isRegularFile()) {
                            out.add(
                                    new FileStatus(
                                            directory + sep + dir.relativize(file),
                                            attrs.size(),
                                            attrs.lastModifiedTime().toMillis()));
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e)
                            throws IOException {
                        if (e instanceof NoSuchFileException) {
                            return FileVisitResult.CONTINUE;
                        }
                        throw e;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path d, IOException e)
                            throws IOException {
                        if (e != null && !(e instanceof NoSuchFileException)) {
                            throw e;
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
        return out;
    }

    @Override
    public List<String> listDirectories(String directory) throws IOException {
        Path dir = toPath(directory);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        String sep = directory.endsWith("/") ? "" : "/";
        List<String> out = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                if (Files.isDirectory(p)) {
                    out.add(directory + sep + p.getFileName());
                }
            }
        }
        out.sort(null);
        return out;
    }

    @Override
    public void deleteRecursively(String directory) throws IOException {
        Path dir = toPath(directory);
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public void renameDirectory(String from, String to) throws IOException {
        Path target = toPath(to);
        if (Files.exists(target)) {
            throw new FileAlreadyExistsException(to);
        }
        Files.createDirectories(target.toAbsolutePath().getParent());
        Files.move(toPath(from), target, StandardCopyOption.ATOMIC_MOVE);
    }

    private static FileStatus status(String directory, Path p) throws IOException {
        return status(directory, p.getFileName().toString(), p);
    }

    /** The file's status, or null if it was deleted since it was listed (e.g. a temp file). */
    private static FileStatus status(String directory, String relative, Path p) throws IOException {
        String sep = directory.endsWith("/") ? "" : "/";
        try {
            return new FileStatus(
                    directory + sep + relative,
                    Files.size(p),
                    Files.getLastModifiedTime(p).toMillis());
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    @Override
    public boolean writeIfAbsent(String path, byte[] content) throws IOException {
        Path target = toPath(path);
        if (Files.exists(target)) {
            return false;
        }
        Path tmp = writeTemp(target, content);
        try {
            Files.createLink(target, tmp);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    @Override
    public void overwrite(String path, byte[] content) throws IOException {
        Path target = toPath(path);
        Path tmp = writeTemp(target, content);
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Creates a file, and its directory if that is missing. The directory usually exists, and
     * {@code Files.createDirectories} first tries to create it anyway, an exception with a stack
     * trace for every file a writer creates.
     */
    private static FileChannel createNew(Path file) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            Files.createDirectories(file.toAbsolutePath().getParent());
            return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
    }

    private static Path writeTemp(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try (FileChannel ch = createNew(tmp)) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        return tmp;
    }

    private static final class LocalInputFile implements InputFile {
        private final String path;
        private final Path file;
        private final boolean directIo;

        LocalInputFile(String path, Path file, boolean directIo) {
            this.path = path;
            this.file = file;
            this.directIo = directIo;
        }

        @Override
        public String path() {
            return path;
        }

        @Override
        public long length() throws IOException {
            try {
                return Files.size(file);
            } catch (NoSuchFileException e) {
                throw notFound(e);
            }
        }

        @Override
        public SeekableInputStream newStream() throws IOException {
            return new LocalInputStream(open());
        }

        @Override
        public SeekableInputStream newUncachedStream() throws IOException {
            FileChannel channel = open();
            SeekableInputStream direct =
                    directIo ? DirectInputStream.openOrNull(file, channel) : null;
            return direct != null ? direct : new LocalInputStream(channel);
        }

        private FileChannel open() throws IOException {
            try {
                return FileChannel.open(file, StandardOpenOption.READ);
            } catch (NoSuchFileException e) {
                throw notFound(e);
            }
        }

        @Override
        public byte[] readAllBytes() throws IOException {
            try {
                return Files.readAllBytes(file);
            } catch (NoSuchFileException e) {
                throw notFound(e);
            }
        }

        private FileNotFoundException notFound(NoSuchFileException e) {
            FileNotFoundException f = new FileNotFoundException("File does not exist: " + path);
            f.initCause(e);
            return f;
        }
    }

    private static final class LocalInputStream extends SeekableInputStream {
        private final FileChannel channel;
        private final byte[] one = new byte[1];

        LocalInputStream(FileChannel channel) {
            this.channel = channel;
        }

        @Override
        public long getPos() throws IOException {
            return channel.position();
        }

        @Override
        public void seek(long newPos) throws IOException {
            channel.position(newPos);
        }

        @Override
        public int read() throws IOException {
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            return channel.read(ByteBuffer.wrap(b, off, len));
        }

        @Override
        public long skip(long n) throws IOException {
            long pos = channel.position();
            long target = Math.min(channel.size(), pos + Math.max(0, n));
            channel.position(target);
            return target - pos;
        }

        @Override
        public int available() throws IOException {
            return (int) Math.min(Integer.MAX_VALUE, channel.size() - channel.position());
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    private static final class LocalOutputStream extends PositionOutputStream {
        private final FileChannel channel;
        private final OutputStream out;
        private long pos;
        private boolean closed;

        LocalOutputStream(FileChannel channel) {
            this.channel = channel;
            this.out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void write(int b) throws IOException {
            checkOpen();
            out.write(b);
            pos++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            checkOpen();
            out.write(b, off, len);
            pos += len;
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
            try {
                out.flush();
                channel.force(false);
            } finally {
                out.close();
            }
        }

        private void checkOpen() throws IOException {
            if (closed) {
                throw new IOException("Stream closed");
            }
        }
    }
}
