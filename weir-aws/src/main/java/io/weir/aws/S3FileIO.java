package io.weir.aws;

import io.weir.io.FileIO;
import io.weir.io.FileStatus;
import io.weir.io.InputFile;
import io.weir.io.OutputFile;
import io.weir.io.PositionOutputStream;
import io.weir.options.StorageOptions;

import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link FileIO} on S3 and S3-compatible servers, over the AWS SDK for Java v2. Get it from {@link
 * io.weir.io.FileIOs} for an {@code s3://} or {@code s3a://} location. One instance holds one
 * client (one connection pool) and one executor for background part uploads, shared by every table
 * and thread that uses it.
 *
 * <p>Paths are {@code s3://bucket/key}; a directory is the prefix {@code key/}. Listings return
 * paths in the form of the directory asked for plus {@code /name}.
 *
 * <p>Commits use {@link #writeIfAbsent}, a PUT with {@code If-None-Match: *} ({@link
 * ConditionalPuts}). New files stream out with {@link S3OutputStream} (one PUT, or a multipart
 * upload for files larger than a part), and are read with ranged GETs ({@link S3InputStream}).
 */
public final class S3FileIO implements FileIO, AutoCloseable {
    private static final int DELETE_BATCH = 1000;

    private final S3RequestCounter counter = new S3RequestCounter();
    private final S3Client client;
    private final S3Errors errors;
    private final ConditionalPuts conditionalPuts;
    private final int partSize;
    private final int maxInFlight;
    private final int readAhead;
    private final ExecutorService uploads;

    /** Buckets known to exist, so that a 404 of a HEAD is asked about only once per bucket. */
    private final Set<String> existingBuckets = ConcurrentHashMap.newKeySet();

    /**
     * @throws IllegalArgumentException if the options cannot make a client (a malformed endpoint,
     *     no region to be found)
     */
    public S3FileIO(StorageOptions options) {
        this.client = S3Clients.build(options, counter);
        this.errors = new S3Errors(client, S3Clients.describeEndpoint(options));
        this.conditionalPuts = new ConditionalPuts(client, errors);
        this.partSize = (int) options.get(StorageOptions.S3_MULTIPART_PART_SIZE).bytes();
        this.maxInFlight = options.get(StorageOptions.S3_MULTIPART_MAX_IN_FLIGHT);
        this.readAhead = (int) options.get(StorageOptions.S3_READ_AHEAD).bytes();
        // Bounded by the connections; the per-stream limit bounds the queue (and the memory).
        int threads = Math.max(2, Math.min(32, options.get(StorageOptions.S3_MAX_CONNECTIONS)));
        ThreadPoolExecutor pool =
                new ThreadPoolExecutor(
                        threads,
                        threads,
                        30,
                        TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(),
                        daemonThreads("weir-s3-upload-"));
        pool.allowCoreThreadTimeOut(true);
        this.uploads = pool;
    }

    /** Requests sent so far, by kind, retries included. */
    public S3RequestCounts requestCounts() {
        return counter.snapshot();
    }

    @Override
    public InputFile newInputFile(String path) {
        return new S3InputFile(this, path, S3Location.parse(path), -1);
    }

    /** No HEAD: the length is the one the table's metadata recorded. */
    @Override
    public InputFile newInputFile(String path, long length) {
        return new S3InputFile(this, path, S3Location.parse(path), length);
    }

    @Override
    public OutputFile newOutputFile(String path) {
        S3Location location = S3Location.parse(path);
        return new OutputFile() {
            @Override
            public String path() {
                return path;
            }

            /**
             * Fails at once if the object exists (one HEAD); the upload itself is conditional too,
             * so a writer that creates it meanwhile still makes close fail.
             */
            @Override
            public PositionOutputStream create() throws IOException {
                if (head(location) != null) {
                    throw new FileAlreadyExistsException(path);
                }
                return new S3OutputStream(client, errors, location, partSize, maxInFlight, uploads);
            }
        };
    }

    @Override
    public boolean exists(String path) throws IOException {
        return head(S3Location.parse(path)) != null;
    }

    /** The object's length; {@link FileNotFoundException} if it does not exist. */
    long headLength(S3Location location, String path) throws IOException {
        HeadObjectResponse head = head(location);
        if (head == null) {
            throw new FileNotFoundException("File does not exist: " + path);
        }
        return head.contentLength();
    }

    /** HEAD of an object, or null if it does not exist (in a bucket that does). */
    private HeadObjectResponse head(S3Location location) throws IOException {
        try {
            return client.headObject(b -> b.bucket(location.bucket()).key(location.key()));
        } catch (S3Exception e) {
            if (e.statusCode() != 404) {
                throw errors.translate(e, "HEAD", location);
            }
        } catch (SdkException e) {
            throw errors.translate(e, "HEAD", location);
        }
        checkBucketExists(location);
        return null;
    }

    /**
     * A HEAD answers 404 without a body, so without saying whether the key, the bucket or (on some
     * servers) the access key is unknown. Ask once per bucket with a request whose errors carry a
     * code (a one-key listing), so that a wrong bucket name or key fails with a message that says
     * so instead of looking like an empty table.
     */
    private void checkBucketExists(S3Location location) throws IOException {
        if (existingBuckets.contains(location.bucket())) {
            return;
        }
        try {
            client.listObjectsV2(b -> b.bucket(location.bucket()).maxKeys(1));
        } catch (NoSuchBucketException e) {
            throw errors.noSuchBucket(location, e);
        } catch (SdkException e) {
            throw errors.translate(e, "LIST", location);
        }
        existingBuckets.add(location.bucket());
    }

    @Override
    public void delete(String path) throws IOException {
        S3Location location = S3Location.parse(path);
        try {
            client.deleteObject(b -> b.bucket(location.bucket()).key(location.key()));
        } catch (SdkException e) {
            IOException translated = errors.translate(e, "DELETE", location);
            if (!(translated instanceof FileNotFoundException)) {
                throw translated;
            }
        }
    }

    /** DeleteObjects in batches of 1000 keys per bucket; a missing key is not an error. */
    @Override
    public void deleteFiles(Collection<String> paths) throws IOException {
        Map<String, List<S3Location>> byBucket = new LinkedHashMap<>();
        for (String path : paths) {
            S3Location location = S3Location.parse(path);
            byBucket.computeIfAbsent(location.bucket(), b -> new ArrayList<>()).add(location);
        }
        for (List<S3Location> locations : byBucket.values()) {
            for (int from = 0; from < locations.size(); from += DELETE_BATCH) {
                deleteBatch(
                        locations.subList(from, Math.min(locations.size(), from + DELETE_BATCH)));
            }
        }
    }

    private void deleteBatch(List<S3Location> batch) throws IOException {
        List<ObjectIdentifier> keys = new ArrayList<>(batch.size());
        for (S3Location location : batch) {
            keys.add(ObjectIdentifier.builder().key(location.key()).build());
        }
        S3Location first = batch.get(0);
        DeleteObjectsResponse response;
        try {
            response =
                    client.deleteObjects(
                            b ->
                                    b.bucket(first.bucket())
                                            .delete(
                                                    Delete.builder()
                                                            .objects(keys)
                                                            .quiet(true)
                                                            .build()));
        } catch (SdkException e) {
            throw errors.translate(e, "DeleteObjects (" + batch.size() + " keys)", first);
        }
        List<String> failures = new ArrayList<>();
        for (S3Error error : response.errors()) {
            if (!"NoSuchKey".equals(error.code())) {
                failures.add(error.key() + ": " + error.code() + " " + error.message());
            }
        }
        if (!failures.isEmpty()) {
            throw new IOException(
                    String.format(
                            "Cannot delete %d of %d objects in bucket '%s' at %s, e.g. %s",
                            failures.size(),
                            batch.size(),
                            first.bucket(),
                            errors.endpoint(),
                            failures.subList(0, Math.min(3, failures.size()))));
        }
    }

    @Override
    public List<FileStatus> list(String directory) throws IOException {
        List<FileStatus> out = new ArrayList<>();
        listing(directory, true, out, null);
        return out;
    }

    @Override
    public List<FileStatus> listRecursive(String directory) throws IOException {
        List<FileStatus> out = new ArrayList<>();
        listing(directory, false, out, null);
        return out;
    }

    @Override
    public List<String> listDirectories(String directory) throws IOException {
        List<String> out = new ArrayList<>();
        listing(directory, true, null, out);
        out.sort(null);
        return out;
    }

    /**
     * Lists a prefix, page by page: files into {@code files}, and with a delimiter the common
     * prefixes (directories) into {@code directories}.
     */
    private void listing(
            String directory, boolean delimited, List<FileStatus> files, List<String> directories)
            throws IOException {
        S3Location location = S3Location.parse(directory);
        String prefix = location.directoryPrefix();
        String base = directory.endsWith("/") ? directory : directory + "/";
        ListObjectsV2Request.Builder request =
                ListObjectsV2Request.builder().bucket(location.bucket()).prefix(prefix);
        if (delimited) {
            request.delimiter("/");
        }
        try {
            for (ListObjectsV2Response page : client.listObjectsV2Paginator(request.build())) {
                if (files != null) {
                    for (S3Object object : page.contents()) {
                        String name = object.key().substring(prefix.length());
                        // Keys ending in "/" are directory markers that other tools create.
                        if (!name.isEmpty() && !name.endsWith("/")) {
                            files.add(
                                    new FileStatus(
                                            base + name,
                                            object.size(),
                                            object.lastModified().toEpochMilli()));
                        }
                    }
                }
                if (directories != null) {
                    for (CommonPrefix common : page.commonPrefixes()) {
                        String name = common.prefix().substring(prefix.length());
                        directories.add(base + name.substring(0, name.length() - 1));
                    }
                }
            }
        } catch (SdkException e) {
            throw errors.translate(e, "LIST", location);
        }
    }

    @Override
    public boolean writeIfAbsent(String path, byte[] content) throws IOException {
        return conditionalPuts.writeIfAbsent(S3Location.parse(path), content);
    }

    /** A plain PUT: for hints only, never for commits. */
    @Override
    public void overwrite(String path, byte[] content) throws IOException {
        S3Location location = S3Location.parse(path);
        try {
            client.putObject(
                    b -> b.bucket(location.bucket()).key(location.key()),
                    software.amazon.awssdk.core.sync.RequestBody.fromBytes(content));
        } catch (SdkException e) {
            throw errors.translate(e, "PUT", location);
        }
    }

    /** One GET of the whole object. */
    @Override
    public byte[] readAllBytes(String path) throws IOException {
        S3Location location = S3Location.parse(path);
        try {
            return client.getObjectAsBytes(b -> b.bucket(location.bucket()).key(location.key()))
                    .asByteArray();
        } catch (SdkException e) {
            IOException translated = errors.translate(e, "GET", location);
            if (translated instanceof FileNotFoundException) {
                FileNotFoundException f = new FileNotFoundException("File does not exist: " + path);
                f.initCause(e);
                throw f;
            }
            throw translated;
        }
    }

    S3Client client() {
        return client;
    }

    S3Errors errors() {
        return errors;
    }

    int readAhead() {
        return readAhead;
    }

    /** Closes the client and stops the upload threads; for tests and embedding. */
    @Override
    public void close() {
        uploads.shutdown();
        client.close();
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
