package io.weir.aws;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Create-if-absent on S3: a PutObject with {@code If-None-Match: *}, which the server applies only
 * if no object has the key, atomically across writers. Commits rely on it, so it is never replaced
 * by an unconditional PUT:
 *
 * <ul>
 *   <li>412 Precondition Failed: the object exists, nothing changed: false.
 *   <li>409 ConditionalRequestConflict: a concurrent write to the key was in progress and ours was
 *       not applied: retried, a bounded number of times, after a growing randomized wait.
 *   <li>A dropped connection or timeout after the SDK's retries: an {@link IOException}; the
 *       outcome is unknown and the caller resolves it (a commit reads the object back).
 *   <li>412 after the SDK sent the request more than once: an earlier attempt may have created the
 *       object and lost its response, so the object is read back: our bytes mean we created it.
 * </ul>
 *
 * <p>A server that ignores {@code If-None-Match} would let two commits both "win". Before the first
 * conditional write to a bucket, a probe writes one object twice with the condition and expects the
 * second write to fail; a server that accepts it is refused with an {@link S3SetupException}.
 */
final class ConditionalPuts {
    private static final Logger LOG = LoggerFactory.getLogger(ConditionalPuts.class);
    private static final int MAX_CONFLICT_RETRIES = 10;
    private static final String METADATA_DIR = "_weir/";

    private final S3Client client;
    private final S3Errors errors;

    /** Per bucket: null while unknown, else the verdict of its probe (null message = honoured). */
    private final Map<String, String> verdicts = new ConcurrentHashMap<>();

    ConditionalPuts(S3Client client, S3Errors errors) {
        this.client = client;
        this.errors = errors;
    }

    boolean writeIfAbsent(S3Location location, byte[] content) throws IOException {
        checkConditionsHonoured(location);
        return putIfAbsent(location, content);
    }

    /** The conditional PUT itself, without the probe. */
    boolean putIfAbsent(S3Location location, byte[] content) throws IOException {
        boolean ambiguous = false;
        for (int conflicts = 0; ; conflicts++) {
            AtomicInteger attempts = new AtomicInteger();
            try {
                client.putObject(request(location, attempts), body(content));
                return true;
            } catch (S3Exception e) {
                ambiguous |= attempts.get() > 1;
                if (e.statusCode() == 412) {
                    return ambiguous && isOurs(location, content);
                }
                if (e.statusCode() == 409 && conflicts < MAX_CONFLICT_RETRIES) {
                    LOG.debug("Conditional PUT of {} conflicted, retrying", location);
                    backoff(conflicts, location);
                    continue;
                }
                throw errors.translate(e, "PUT (If-None-Match: *)", location);
            } catch (SdkException e) {
                throw errors.translate(e, "PUT (If-None-Match: *)", location);
            }
        }
    }

    private static PutObjectRequest request(S3Location location, AtomicInteger attempts) {
        return PutObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key())
                .ifNoneMatch("*")
                .overrideConfiguration(
                        o -> o.putExecutionAttribute(S3RequestCounter.ATTEMPTS, attempts))
                .build();
    }

    private static RequestBody body(byte[] content) {
        return RequestBody.fromBytes(content);
    }

    /** Whether the existing object holds exactly our bytes. */
    private boolean isOurs(S3Location location, byte[] content) throws IOException {
        byte[] found;
        try {
            found =
                    client.getObjectAsBytes(b -> b.bucket(location.bucket()).key(location.key()))
                            .asByteArray();
        } catch (SdkException e) {
            IOException translated = errors.translate(e, "GET", location);
            if (translated instanceof FileNotFoundException) {
                throw new IOException(
                        "Cannot tell whether the conditional PUT of "
                                + location
                                + " was applied: it was retried, the retry found the object, and"
                                + " the object is now gone",
                        e);
            }
            throw translated;
        }
        boolean ours = Arrays.equals(found, content);
        LOG.info(
                "A retried conditional PUT of {} found the object; it holds {} bytes",
                location,
                ours ? "our" : "other");
        return ours;
    }

    /**
     * Probes the bucket once: throws an {@link S3SetupException} if its server accepts a second
     * conditional PUT of the same key. The probe object lies in the table's own {@code _weir/}
     * directory (or beside the target), so its key collides with nothing.
     */
    private void checkConditionsHonoured(S3Location target) throws IOException {
        String verdict = verdicts.get(target.bucket());
        if (verdict == null) {
            synchronized (this) {
                verdict = verdicts.get(target.bucket());
                if (verdict == null) {
                    verdict = probe(target);
                    verdicts.put(target.bucket(), verdict);
                }
            }
        }
        if (!verdict.isEmpty()) {
            throw new S3SetupException(verdict);
        }
    }

    /** The empty string if the server honours the condition, else the message to fail with. */
    private String probe(S3Location target) throws IOException {
        S3Location probe =
                new S3Location(
                        target.scheme(),
                        target.bucket(),
                        probePrefix(target.key()) + ".probe-" + UUID.randomUUID());
        if (!putIfAbsent(probe, "first".getBytes(StandardCharsets.UTF_8))) {
            throw new IOException("The fresh probe object " + probe + " already existed");
        }
        boolean honoured;
        try {
            client.putObject(
                    PutObjectRequest.builder()
                            .bucket(probe.bucket())
                            .key(probe.key())
                            .ifNoneMatch("*")
                            .build(),
                    body("second".getBytes(StandardCharsets.UTF_8)));
            honoured = false; // the object existed, so a success means the condition was ignored
        } catch (S3Exception e) {
            if (e.statusCode() != 412) {
                throw errors.translate(e, "PUT (If-None-Match: *) of a probe", probe);
            }
            honoured = true;
        } catch (SdkException e) {
            throw errors.translate(e, "PUT (If-None-Match: *) of a probe", probe);
        } finally {
            deleteQuietly(probe);
        }
        if (honoured) {
            return "";
        }
        return String.format(
                "The S3 endpoint %s does not honour conditional writes (If-None-Match: *): a second"
                        + " conditional PUT of %s succeeded, so commits to bucket '%s' cannot be"
                        + " atomic. Use a server that supports them (AWS S3, versitygw, ...)",
                errors.endpoint(), probe, probe.bucket());
    }

    private void deleteQuietly(S3Location location) {
        try {
            client.deleteObject(
                    DeleteObjectRequest.builder()
                            .bucket(location.bucket())
                            .key(location.key())
                            .build());
        } catch (SdkException e) {
            LOG.warn("Cannot delete the probe object {}: {}", location, e.toString());
        }
    }

    /** The table's {@code _weir/} directory if the key lies in one, else the key's directory. */
    static String probePrefix(String key) {
        int at = key.lastIndexOf(METADATA_DIR);
        while (at > 0 && key.charAt(at - 1) != '/') {
            at = key.lastIndexOf(METADATA_DIR, at - 1);
        }
        if (at >= 0) {
            return key.substring(0, at + METADATA_DIR.length());
        }
        int slash = key.lastIndexOf('/');
        return slash < 0 ? "" : key.substring(0, slash + 1);
    }

    private static void backoff(int attempt, S3Location location) throws IOException {
        long cap = Math.min(2000, 20L << Math.min(attempt, 10));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(
                    "Interrupted while retrying the conditional PUT of " + location);
        }
    }
}
