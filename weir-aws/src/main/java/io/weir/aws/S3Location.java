package io.weir.aws;

import java.util.Locale;

/**
 * A parsed {@code s3://bucket/key} (or {@code s3a://}) path. The key has no leading slash; a key
 * that names a directory is a prefix, written here without its trailing slash.
 */
record S3Location(String scheme, String bucket, String key) {

    static S3Location parse(String path) {
        int colon = path.indexOf("://");
        if (colon <= 0) {
            throw new IllegalArgumentException(
                    "Not an S3 location: '" + path + "' (expected s3://bucket/key)");
        }
        String scheme = path.substring(0, colon).toLowerCase(Locale.ROOT);
        if (!scheme.equals("s3") && !scheme.equals("s3a")) {
            throw new IllegalArgumentException(
                    "Not an S3 location: '" + path + "' (the scheme must be s3 or s3a)");
        }
        String rest = path.substring(colon + 3);
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String key = slash < 0 ? "" : rest.substring(slash + 1);
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException(
                    "Not an S3 location: '" + path + "' (no bucket; expected s3://bucket/key)");
        }
        return new S3Location(scheme, bucket, key);
    }

    /**
     * The prefix that lists what is inside this location as a directory: the key with a trailing
     * slash, or the empty prefix for the bucket's root.
     */
    String directoryPrefix() {
        return key.isEmpty() || key.endsWith("/") ? key : key + "/";
    }

    @Override
    public String toString() {
        return scheme + "://" + bucket + "/" + key;
    }
}
