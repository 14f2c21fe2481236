package io.weir.aws;

import io.weir.io.SeekableInputStream;

import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads an S3 object with ranged GETs. Each GET asks for at least {@code readAhead} bytes from the
 * position read, into a buffer: reads and seeks within the buffer cost no request, a read elsewhere
 * replaces it, and a read of at least {@code readAhead} bytes that the buffer does not hold goes
 * straight into the caller's array. Each GET's body is read whole before the next one, so the
 * connection goes back to the pool; a body cut off midway is asked for again.
 */
final class S3InputStream extends SeekableInputStream {
    private static final int BODY_RETRIES = 3;

    private final S3Client client;
    private final S3Errors errors;
    private final S3Location location;
    private final String path;
    private final int readAhead;
    private final byte[] one = new byte[1];

    /** The object's length, or -1 until a response tells it. */
    private long length;

    private byte[] buffer;
    private long bufferStart;
    private int bufferLength;
    private long pos;
    private boolean closed;

    S3InputStream(
            S3Client client,
            S3Errors errors,
            S3Location location,
            String path,
            long length,
            int readAhead) {
        this.client = client;
        this.errors = errors;
        this.location = location;
        this.path = path;
        this.length = length;
        this.readAhead = readAhead;
    }

    @Override
    public long getPos() {
        return pos;
    }

    @Override
    public void seek(long newPos) throws IOException {
        checkOpen();
        if (newPos < 0) {
            throw new EOFException("Cannot seek to a negative position " + newPos + " in " + path);
        }
        pos = newPos;
    }

    @Override
    public int read() throws IOException {
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        if (len == 0) {
            return 0;
        }
        if (!buffered()) {
            if (length >= 0 && pos >= length) {
                return -1;
            }
            if (len >= readAhead) {
                int n = get(pos, len, b, off);
                if (n <= 0) {
                    return -1;
                }
                pos += n;
                return n;
            }
            if (!fill()) {
                return -1;
            }
        }
        int inBuffer = (int) (pos - bufferStart);
        int n = Math.min(len, bufferLength - inBuffer);
        System.arraycopy(buffer, inBuffer, b, off, n);
        pos += n;
        return n;
    }

    private boolean buffered() {
        return buffer != null && pos >= bufferStart && pos < bufferStart + bufferLength;
    }

    /** Fetches {@code readAhead} bytes (or up to the end) from {@code pos}; false at the end. */
    private boolean fill() throws IOException {
        int want = readAhead;
        if (length >= 0) {
            want = (int) Math.min(want, length - pos);
        }
        if (buffer == null || buffer.length < want) {
            buffer = new byte[want];
        }
        bufferLength = 0;
        int n = get(pos, want, buffer, 0);
        if (n <= 0) {
            return false;
        }
        bufferStart = pos;
        bufferLength = n;
        return true;
    }

    /**
     * One ranged GET of up to {@code len} bytes at {@code from} into {@code into}; returns the
     * bytes read, 0 at or past the end of the object.
     */
    private int get(long from, int len, byte[] into, int off) throws IOException {
        GetObjectRequest request =
                GetObjectRequest.builder()
                        .bucket(location.bucket())
                        .key(location.key())
                        .range("bytes=" + from + "-" + (from + len - 1))
                        .build();
        for (int attempt = 0; ; attempt++) {
            try (ResponseInputStream<GetObjectResponse> in = client.getObject(request)) {
                learnLength(in.response());
                Long contentLength = in.response().contentLength();
                long expected = contentLength == null ? len : contentLength;
                int n = readBody(in, into, off, (int) Math.min(len, expected));
                if (n < Math.min(len, expected) && attempt < BODY_RETRIES) {
                    continue; // the connection broke midway: ask again
                }
                if (n < Math.min(len, expected)) {
                    throw new EOFException(
                            "S3 GET " + path + " ended after " + n + " of " + expected + " bytes");
                }
                return n;
            } catch (S3Exception e) {
                if (e.statusCode() == 416) {
                    return 0; // the range starts at or after the end
                }
                throw translate(e);
            } catch (SdkException e) {
                throw translate(e);
            } catch (IOException e) {
                if (attempt >= BODY_RETRIES || e instanceof FileNotFoundException) {
                    throw e;
                }
            }
        }
    }

    private static int readBody(InputStream in, byte[] into, int off, int len) {
        int n = 0;
        try {
            while (n < len) {
                int r = in.read(into, off + n, len - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
        } catch (IOException | SdkException e) {
            // a short read: the caller asks again
        }
        return n;
    }

    /** Takes the object's length from {@code Content-Range: bytes a-b/length}. */
    private void learnLength(GetObjectResponse response) {
        String range = response.contentRange();
        if (range == null) {
            return;
        }
        int slash = range.lastIndexOf('/');
        if (slash > 0 && !range.endsWith("*")) {
            length = Long.parseLong(range.substring(slash + 1).trim());
        }
    }

    private IOException translate(SdkException e) {
        IOException translated = errors.translate(e, "GET", location);
        if (translated instanceof FileNotFoundException) {
            FileNotFoundException f = new FileNotFoundException("File does not exist: " + path);
            f.initCause(e);
            return f;
        }
        return translated;
    }

    @Override
    public long skip(long n) throws IOException {
        checkOpen();
        if (n <= 0) {
            return 0;
        }
        long target = pos + n;
        if (length >= 0) {
            target = Math.min(target, Math.max(pos, length));
        }
        long skipped = target - pos;
        pos = target;
        return skipped;
    }

    @Override
    public int available() {
        return buffered() ? (int) (bufferStart + bufferLength - pos) : 0;
    }

    @Override
    public void close() {
        closed = true;
        buffer = null;
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream closed: " + path);
        }
    }
}
