package io.weir.aws;

import io.weir.io.PositionOutputStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.ref.Cleaner;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;

/**
 * Writes a new S3 object; it becomes visible, whole, when the stream is closed, and only if no
 * object had the key ({@code If-None-Match: *}).
 *
 * <p>Bytes collect in memory up to one part. A file closed before its first part fills is sent with
 * one PutObject. A larger one becomes a multipart upload: each full part is uploaded in the
 * background on the file system's shared executor while the writer fills the next, with at most
 * {@code maxInFlight} parts of this stream in flight (the writer waits for one to finish before it
 * hands over another, so memory stays at {@code maxInFlight + 1} parts). Close completes the
 * upload. A failure anywhere, {@link #abort()}, or a stream dropped without being closed aborts the
 * upload, so no partial object is ever visible and no parts are left behind.
 */
public final class S3OutputStream extends PositionOutputStream {
    private static final Logger LOG = LoggerFactory.getLogger(S3OutputStream.class);
    private static final Cleaner CLEANER = Cleaner.create();
    private static final int INITIAL_BUFFER = 64 * 1024;

    private final S3Client client;
    private final S3Errors errors;
    private final S3Location location;
    private final int partSize;
    private final Executor executor;
    private final Semaphore inFlight;
    private final Upload upload;
    private final Cleaner.Cleanable cleanable;
    private final List<CompletableFuture<CompletedPart>> parts = new ArrayList<>();
    // Full-size buffers whose parts finished uploading, reused for the next parts.
    private final ArrayDeque<byte[]> spare = new ArrayDeque<>();

    private byte[] buffer = new byte[0];
    private int count;
    private long pos;
    private boolean closed;

    S3OutputStream(
            S3Client client,
            S3Errors errors,
            S3Location location,
            int partSize,
            int maxInFlight,
            Executor executor) {
        this.client = client;
        this.errors = errors;
        this.location = location;
        this.partSize = partSize;
        this.executor = executor;
        this.inFlight = new Semaphore(maxInFlight);
        this.upload = new Upload(client, location);
        this.cleanable = CLEANER.register(this, upload);
    }

    @Override
    public long getPos() {
        return pos;
    }

    @Override
    public void write(int b) throws IOException {
        ensureRoom();
        buffer[count++] = (byte) b;
        pos++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        while (len > 0) {
            ensureRoom();
            int n = Math.min(len, buffer.length - count);
            System.arraycopy(b, off, buffer, count, n);
            count += n;
            pos += n;
            off += n;
            len -= n;
        }
    }

    /**
     * Makes room for at least one more byte: grows the buffer up to a part, or hands a full part
     * over to be uploaded. A full part is handed over only when more bytes come, so that a file of
     * exactly one part is still a single PUT.
     */
    private void ensureRoom() throws IOException {
        if (closed) {
            throw new IOException("Stream closed: " + location);
        }
        if (count < buffer.length) {
            return;
        }
        if (buffer.length < partSize) {
            byte[] grown =
                    new byte[Math.min(partSize, Math.max(INITIAL_BUFFER, buffer.length * 2))];
            System.arraycopy(buffer, 0, grown, 0, count);
            buffer = grown;
            return;
        }
        try {
            uploadPart();
        } catch (IOException | RuntimeException e) {
            abortAfter(e);
            throw e;
        }
        synchronized (spare) {
            buffer = spare.isEmpty() ? new byte[partSize] : spare.pop();
        }
        count = 0;
    }

    private void uploadPart() throws IOException {
        if (upload.id == null) {
            try {
                upload.id =
                        client.createMultipartUpload(
                                        b -> b.bucket(location.bucket()).key(location.key()))
                                .uploadId();
            } catch (SdkException e) {
                throw errors.translate(e, "CreateMultipartUpload", location);
            }
        }
        failIfAPartFailed();
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while uploading " + location);
        }
        int partNumber = parts.size() + 1;
        byte[] data = buffer;
        int length = count;
        String uploadId = upload.id;
        CompletableFuture<CompletedPart> part =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return sendPart(uploadId, partNumber, data, length);
                            } finally {
                                if (data.length == partSize) {
                                    synchronized (spare) {
                                        spare.push(data);
                                    }
                                }
                                inFlight.release();
                            }
                        },
                        executor);
        parts.add(part);
    }

    private CompletedPart sendPart(String uploadId, int partNumber, byte[] data, int length) {
        UploadPartRequest request =
                UploadPartRequest.builder()
                        .bucket(location.bucket())
                        .key(location.key())
                        .uploadId(uploadId)
                        .partNumber(partNumber)
                        .contentLength((long) length)
                        .build();
        // A provider re-reads the buffer on a retry without copying it.
        String etag =
                client.uploadPart(
                                request,
                                RequestBody.fromContentProvider(
                                        () -> new ByteArrayInputStream(data, 0, length),
                                        length,
                                        "application/octet-stream"))
                        .eTag();
        return CompletedPart.builder().partNumber(partNumber).eTag(etag).build();
    }

    private void failIfAPartFailed() throws IOException {
        for (CompletableFuture<CompletedPart> part : parts) {
            if (part.isCompletedExceptionally()) {
                join(part);
            }
        }
    }

    private CompletedPart join(CompletableFuture<CompletedPart> part) throws IOException {
        try {
            return part.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while uploading " + location);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SdkException sdk) {
                throw errors.translate(sdk, "UploadPart", location);
            }
            throw new IOException("Uploading a part of " + location + " failed", cause);
        }
    }

    @Override
    public void flush() {
        // Nothing can be sent before a whole part (or the whole file) is there.
    }

    /**
     * Publishes the object: one PUT, or the last part and CompleteMultipartUpload.
     *
     * @throws FileAlreadyExistsException if an object with the key appeared meanwhile
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (upload.id == null) {
                putWhole();
            } else {
                complete();
            }
            upload.done = true;
        } catch (IOException | RuntimeException | Error e) {
            abortAfter(e);
            throw e;
        } finally {
            buffer = null;
            cleanable.clean(); // a no-op when done; aborts otherwise (already, above)
        }
    }

    private void putWhole() throws IOException {
        int length = count;
        byte[] data = buffer;
        try {
            client.putObject(
                    PutObjectRequest.builder()
                            .bucket(location.bucket())
                            .key(location.key())
                            .ifNoneMatch("*")
                            .contentLength((long) length)
                            .build(),
                    RequestBody.fromContentProvider(
                            () -> new ByteArrayInputStream(data, 0, length),
                            length,
                            "application/octet-stream"));
        } catch (S3Exception e) {
            if (e.statusCode() == 412) {
                throw alreadyExists();
            }
            throw errors.translate(e, "PUT (If-None-Match: *)", location);
        } catch (SdkException e) {
            throw errors.translate(e, "PUT (If-None-Match: *)", location);
        }
    }

    private void complete() throws IOException {
        if (count > 0) {
            uploadPart();
        }
        List<CompletedPart> done = new ArrayList<>(parts.size());
        for (CompletableFuture<CompletedPart> part : parts) {
            done.add(join(part));
        }
        try {
            client.completeMultipartUpload(
                    b ->
                            b.bucket(location.bucket())
                                    .key(location.key())
                                    .uploadId(upload.id)
                                    .ifNoneMatch("*")
                                    .multipartUpload(
                                            CompletedMultipartUpload.builder()
                                                    .parts(done)
                                                    .build()));
        } catch (S3Exception e) {
            if (e.statusCode() == 412) {
                throw alreadyExists();
            }
            throw errors.translate(e, "CompleteMultipartUpload", location);
        } catch (SdkException e) {
            throw errors.translate(e, "CompleteMultipartUpload", location);
        }
    }

    private FileAlreadyExistsException alreadyExists() {
        return new FileAlreadyExistsException(
                location.toString(), null, "another writer created the object meanwhile");
    }

    /**
     * Drops what was written: nothing becomes visible, and a multipart upload is aborted with its
     * parts. For a writer that fails or gives up; the stream is closed afterwards.
     */
    @Override
    public void abort() {
        if (upload.done) {
            return;
        }
        closed = true;
        buffer = null;
        waitForParts();
        cleanable.clean();
    }

    private void abortAfter(Throwable failure) {
        try {
            closed = true;
            waitForParts();
            cleanable.clean();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Lets the parts in flight finish before aborting: a part that completes after the abort would
     * otherwise leave storage behind.
     */
    private void waitForParts() {
        for (CompletableFuture<CompletedPart> part : parts) {
            try {
                part.join();
            } catch (RuntimeException ignored) {
                // the part failed: nothing of it to remove
            }
        }
    }

    /**
     * What the cleaner needs to abort the upload; it holds no reference to the stream, so that a
     * stream dropped without close can be collected and its upload aborted.
     */
    private static final class Upload implements Runnable {
        private final S3Client client;
        private final S3Location location;
        volatile String id;
        volatile boolean done;

        Upload(S3Client client, S3Location location) {
            this.client = client;
            this.location = location;
        }

        @Override
        public void run() {
            String uploadId = id;
            if (done || uploadId == null) {
                return;
            }
            try {
                client.abortMultipartUpload(
                        AbortMultipartUploadRequest.builder()
                                .bucket(location.bucket())
                                .key(location.key())
                                .uploadId(uploadId)
                                .build());
            } catch (SdkException | IllegalStateException e) {
                // The client may be closed already; the bucket's lifecycle rule for incomplete
                // uploads is the last resort.
                LOG.warn("Cannot abort the multipart upload of {}: {}", location, e.toString());
            }
        }
    }
}
