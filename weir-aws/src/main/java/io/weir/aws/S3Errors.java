package io.weir.aws;

import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.Set;

/**
 * Turns the SDK's exceptions into what Weir's callers act on: an {@link IOException} for what may
 * pass (a dropped connection, a server error after the retries), a {@link FileNotFoundException}
 * for a missing object, and an {@link S3SetupException} with one line that names the fix for what
 * never will (no such bucket, rejected credentials, access denied).
 */
final class S3Errors {
    private static final Set<String> BAD_CREDENTIALS =
            Set.of(
                    "InvalidAccessKeyId",
                    "SignatureDoesNotMatch",
                    "InvalidToken",
                    "ExpiredToken",
                    "InvalidClientTokenId",
                    "AuthorizationHeaderMalformed",
                    // versitygw's answer (404) to an access key it does not know
                    "XAdminUserNotFound");

    private final S3Client client;
    private final String endpoint;

    /**
     * @param endpoint how to name the server in messages: the configured endpoint, or AWS's
     */
    S3Errors(S3Client client, String endpoint) {
        this.client = client;
        this.endpoint = endpoint;
    }

    String endpoint() {
        return endpoint;
    }

    /**
     * The exception to throw for a failed request. Throws an {@link S3SetupException} itself when
     * the failure is one of set-up.
     *
     * @param operation what was attempted, e.g. "GET", for the message
     * @param path the object or directory it was attempted on
     */
    IOException translate(SdkException e, String operation, S3Location location) {
        if (e instanceof S3Exception s3) {
            String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
            if (code == null && s3.statusCode() == 403) {
                // HEAD answers carry no body, so no error code: ask again with a request that has
                // one.
                code = diagnose403(location);
                if (code == null) {
                    code = "AccessDenied";
                }
            }
            checkSetup(s3, code, operation, location);
            if (s3.statusCode() == 404 && !"NoSuchBucket".equals(code)) {
                FileNotFoundException f =
                        new FileNotFoundException("File does not exist: " + location);
                f.initCause(e);
                return f;
            }
            return new IOException(
                    String.format(
                            "S3 %s %s failed at %s: HTTP %d %s: %s",
                            operation,
                            location,
                            endpoint,
                            s3.statusCode(),
                            code,
                            s3.awsErrorDetails() == null
                                    ? s3.getMessage()
                                    : s3.awsErrorDetails().errorMessage()),
                    e);
        }
        Throwable root = rootCause(e);
        if (root instanceof ConnectException) {
            ConnectException c =
                    new ConnectException(
                            String.format(
                                    "Cannot connect to the S3 endpoint %s (%s) for %s %s: check"
                                            + " s3.endpoint and that the server is running",
                                    endpoint, root.getMessage(), operation, location));
            c.initCause(e);
            return c;
        }
        if (root instanceof UnknownHostException) {
            return new IOException(
                    String.format(
                            "Cannot resolve the host of the S3 endpoint %s for %s %s: check"
                                    + " s3.endpoint (and s3.path-style-access for servers that do"
                                    + " not serve bucket.host names)",
                            endpoint, operation, location),
                    e);
        }
        if (root instanceof InterruptedException || root instanceof InterruptedIOException) {
            Thread.currentThread().interrupt();
            InterruptedIOException i =
                    new InterruptedIOException(
                            "Interrupted during S3 " + operation + " " + location);
            i.initCause(e);
            return i;
        }
        String what = e instanceof SdkClientException ? "failed" : "failed at the server";
        return new IOException(
                String.format(
                        "S3 %s %s %s (%s): %s",
                        operation, location, what, endpoint, e.getMessage()),
                e);
    }

    /** Throws an {@link S3SetupException} if the error is one that no retry can fix. */
    void checkSetup(S3Exception e, String code, String operation, S3Location location) {
        if (code == null) {
            return;
        }
        if (code.equals("NoSuchBucket")) {
            throw noSuchBucket(location, e);
        }
        if (BAD_CREDENTIALS.contains(code)) {
            throw new S3SetupException(
                    String.format(
                            "The S3 endpoint %s rejected the credentials (%s) for %s %s: check"
                                    + " s3.access-key and s3.secret-key (without them, the AWS SDK's"
                                    + " default credentials are used)",
                            endpoint, code, operation, location),
                    e);
        }
        if (code.equals("AccessDenied") || code.equals("AllAccessDisabled")) {
            throw new S3SetupException(
                    String.format(
                            "Access denied to %s (%s) at %s: the credentials lack permission"
                                    + " for bucket '%s', key '%s'",
                            location, operation, endpoint, location.bucket(), location.key()),
                    e);
        }
        if (code.equals("PermanentRedirect") || code.equals("IllegalLocationConstraintException")) {
            throw new S3SetupException(
                    String.format(
                            "Bucket '%s' is in another region than the client's (%s): set"
                                    + " s3.region to the bucket's region",
                            location.bucket(), code),
                    e);
        }
    }

    S3SetupException noSuchBucket(S3Location location, Throwable cause) {
        return new S3SetupException(
                String.format(
                        "Bucket '%s' does not exist at the S3 endpoint %s (location %s): create"
                                + " the bucket, or fix the location",
                        location.bucket(), endpoint, location),
                cause);
    }

    private String diagnose403(S3Location location) {
        try {
            client.listObjectsV2(
                    ListObjectsV2Request.builder()
                            .bucket(location.bucket())
                            .prefix(location.key())
                            .maxKeys(1)
                            .build());
            return null; // listing works: the key itself is denied
        } catch (S3Exception e) {
            return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        } catch (SdkException e) {
            return null;
        }
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
