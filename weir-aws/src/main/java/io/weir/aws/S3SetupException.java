package io.weir.aws;

import io.weir.exceptions.ValidationException;

/**
 * The S3 storage is set up in a way that cannot work, whatever is retried: the bucket does not
 * exist, the credentials are rejected or lack a permission, or the server does not honour
 * conditional writes. The message names what to fix. Nothing was changed.
 */
public class S3SetupException extends ValidationException {
    public S3SetupException(String message) {
        super(message);
    }

    public S3SetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
