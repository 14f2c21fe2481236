package io.weir.aws;

import io.weir.options.StorageOptions;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

import java.net.URI;
import java.time.Duration;

/** Builds the one {@link S3Client} of an {@link S3FileIO} from its storage options. */
final class S3Clients {
    private S3Clients() {}

    static S3Client build(StorageOptions options, S3RequestCounter counter) {
        S3ClientBuilder builder =
                S3Client.builder()
                        .httpClientBuilder(
                                Apache5HttpClient.builder()
                                        .maxConnections(
                                                options.get(StorageOptions.S3_MAX_CONNECTIONS))
                                        .connectionTimeout(Duration.ofSeconds(5)))
                        .forcePathStyle(options.get(StorageOptions.S3_PATH_STYLE_ACCESS))
                        .region(region(options))
                        .credentialsProvider(credentials(options))
                        .overrideConfiguration(
                                ClientOverrideConfiguration.builder()
                                        .retryStrategy(
                                                AwsRetryStrategy.standardRetryStrategy().toBuilder()
                                                        .maxAttempts(
                                                                options.get(
                                                                                StorageOptions
                                                                                        .S3_MAX_RETRIES)
                                                                        + 1)
                                                        .backoffStrategy(
                                                                BackoffStrategy.exponentialDelay(
                                                                        Duration.ofMillis(50),
                                                                        Duration.ofSeconds(5)))
                                                        .throttlingBackoffStrategy(
                                                                BackoffStrategy.exponentialDelay(
                                                                        Duration.ofMillis(200),
                                                                        Duration.ofSeconds(20)))
                                                        // A client shared by every table of a
                                                        // JVM must not stop retrying for all of
                                                        // them after a burst of errors.
                                                        .circuitBreakerEnabled(false)
                                                        .build())
                                        .addExecutionInterceptor(counter)
                                        .build());
        String endpoint = options.get(StorageOptions.S3_ENDPOINT);
        if (endpoint != null) {
            builder.endpointOverride(endpointUri(endpoint));
        }
        return builder.build();
    }

    /** How messages name the server: the configured endpoint, or AWS's for the region. */
    static String describeEndpoint(StorageOptions options) {
        String endpoint = options.get(StorageOptions.S3_ENDPOINT);
        return endpoint != null ? endpoint : "AWS S3";
    }

    private static URI endpointUri(String endpoint) {
        String problem =
                "s3.endpoint '"
                        + endpoint
                        + "' must be an http:// or https:// URI with a host (e.g."
                        + " http://127.0.0.1:9000)";
        URI uri;
        try {
            uri = URI.create(endpoint);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(problem, e);
        }
        if (uri.getScheme() == null
                || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                || uri.getHost() == null) {
            throw new IllegalArgumentException(problem);
        }
        return uri;
    }

    private static Region region(StorageOptions options) {
        String region = options.get(StorageOptions.S3_REGION);
        if (region != null) {
            return Region.of(region);
        }
        try {
            return DefaultAwsRegionProviderChain.builder().build().getRegion();
        } catch (SdkClientException e) {
            if (options.get(StorageOptions.S3_ENDPOINT) != null) {
                // Self-hosted servers mostly ignore the region, but requests must be signed with
                // one.
                return Region.US_EAST_1;
            }
            throw new IllegalArgumentException(
                    "No AWS region: set s3.region (or AWS_REGION, or a region in the AWS profile)",
                    e);
        }
    }

    private static AwsCredentialsProvider credentials(StorageOptions options) {
        String accessKey = options.get(StorageOptions.S3_ACCESS_KEY);
        String secretKey = options.get(StorageOptions.S3_SECRET_KEY);
        if (accessKey != null && secretKey != null) {
            return StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(accessKey, secretKey));
        }
        return DefaultCredentialsProvider.builder().build();
    }
}
