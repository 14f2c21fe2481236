package io.weir.aws;

import io.weir.Schema;
import io.weir.Tables;
import io.weir.aws.testing.S3Server;
import io.weir.exceptions.ValidationException;
import io.weir.io.FileIOs;
import io.weir.options.StorageOptions;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each way of setting S3 up wrong fails with one line that names the fix, against the real server:
 * a wrong port, a bucket that does not exist, wrong keys. (A server that ignores conditional writes
 * is in {@link S3FaultsTest}, which fakes one with a proxy.)
 */
class S3SetupErrorsTest {
    private static S3Server server;

    @BeforeAll
    static void start() {
        server = S3Server.get();
    }

    private static S3FileIO io(StorageOptions options) {
        return new S3FileIO(options.with(Map.of("s3.max-retries", "0")));
    }

    @Test
    void wrongEndpointNamesIt() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        String endpoint = "http://127.0.0.1:" + closedPort;
        try (S3FileIO io = io(S3Server.options(endpoint))) {
            String path = "s3://" + S3Server.BUCKET + "/t/_weir/schemas/0.json";
            assertThatThrownBy(() -> io.exists(path))
                    .isInstanceOf(ConnectException.class)
                    .hasMessageStartingWith("Cannot connect to the S3 endpoint " + endpoint)
                    .hasMessageContaining("check s3.endpoint");
            assertThatThrownBy(() -> io.writeIfAbsent(path, new byte[1]))
                    .isInstanceOf(ConnectException.class)
                    .hasMessageContaining("check s3.endpoint");
        }
    }

    @Test
    void malformedEndpointIsRejectedUpFront() {
        assertThatThrownBy(
                        () ->
                                FileIOs.forLocation(
                                        "s3://b/t",
                                        server.options()
                                                .with(Map.of("s3.endpoint", "127.0.0.1:9000"))))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining(
                        "s3.endpoint '127.0.0.1:9000' must be an http:// or https://");
    }

    @Test
    void missingBucketNamesIt() throws Exception {
        String bucket = "no-such-bucket-" + UUID.randomUUID().toString().substring(0, 8);
        String location = "s3://" + bucket + "/lake/t";
        String expected =
                "Bucket '" + bucket + "' does not exist at the S3 endpoint " + server.endpoint();
        try (S3FileIO io = io(server.options())) {
            assertThatThrownBy(() -> io.exists(location + "/_weir/schemas/0.json"))
                    .isInstanceOf(S3SetupException.class)
                    .hasMessageStartingWith(expected)
                    .hasMessageContaining("create the bucket, or fix the location");
            assertThatThrownBy(
                            () -> io.writeIfAbsent(location + "/_weir/schemas/0.json", new byte[1]))
                    .isInstanceOf(S3SetupException.class)
                    .hasMessageStartingWith(expected);
            assertThatThrownBy(() -> io.list(location))
                    .isInstanceOf(S3SetupException.class)
                    .hasMessageStartingWith(expected);
            assertThatThrownBy(() -> io.readAllBytes(location + "/x"))
                    .isInstanceOf(S3SetupException.class)
                    .hasMessageStartingWith(expected);
        }
        // Through the table API, the same line reaches the caller.
        Map<String, String> options = new HashMap<>(server.options().toMap());
        assertThatThrownBy(() -> Tables.create(location, schema(), options))
                .isInstanceOf(S3SetupException.class)
                .hasMessageStartingWith(expected);
    }

    @Test
    void wrongKeysSayWhichOptions() throws Exception {
        Map<String, String> wrong = new HashMap<>(server.options().toMap());
        wrong.put("s3.secret-key", "not-the-secret");
        String path = "s3://" + S3Server.BUCKET + "/keys/_weir/schemas/0.json";
        try (S3FileIO io = io(StorageOptions.of(wrong))) {
            assertThatThrownBy(() -> io.writeIfAbsent(path, "x".getBytes(StandardCharsets.UTF_8)))
                    .isInstanceOf(S3SetupException.class)
                    .hasMessageContaining("rejected the credentials (SignatureDoesNotMatch)")
                    .hasMessageContaining("check s3.access-key and s3.secret-key");
            // A HEAD's answer has no error code: the FileIO asks again to name the cause.
            assertThatThrownBy(() -> io.exists(path))
                    .isInstanceOf(S3SetupException.class)
                    .hasMessageContaining("check s3.access-key and s3.secret-key");
        }
        wrong.put("s3.access-key", "nobody");
        try (S3FileIO io = io(StorageOptions.of(wrong))) {
            assertThatThrownBy(() -> io.readAllBytes(path))
                    .isInstanceOf(S3SetupException.class)
                    .hasMessageContaining("rejected the credentials (XAdminUserNotFound)")
                    .hasMessageContaining("check s3.access-key and s3.secret-key");
        }
    }

    @Test
    void secretsStayOutOfMessages() {
        Map<String, String> wrong = new HashMap<>(server.options().toMap());
        wrong.put("s3.secret-key", "very-secret-value");
        try (S3FileIO io = io(StorageOptions.of(wrong))) {
            assertThatThrownBy(() -> io.exists("s3://" + S3Server.BUCKET + "/x"))
                    .satisfies(e -> assertThat(e.toString()).doesNotContain("very-secret-value"));
        }
        assertThat(StorageOptions.of(wrong).toString()).doesNotContain("very-secret-value");
    }

    static Schema schema() {
        return Schema.builder()
                .column("id", io.weir.types.DataTypes.BIGINT().notNull())
                .column("v", io.weir.types.DataTypes.STRING())
                .primaryKey("id")
                .build();
    }
}
