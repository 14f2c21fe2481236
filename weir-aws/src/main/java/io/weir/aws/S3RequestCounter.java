package io.weir.aws;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.util.EnumMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the HTTP requests a client sends, by kind, retries included: what an object store bills
 * and what a commit or a table load costs. Counted just before each attempt goes on the wire.
 *
 * <p>A request can also carry an {@link #ATTEMPTS} counter of its own, so that the caller learns
 * whether the SDK sent it more than once (a conditional PUT that was retried may have been applied
 * by an attempt whose response was lost).
 */
final class S3RequestCounter implements ExecutionInterceptor {

    /** Attempts of one request, when the request carries a counter. */
    static final ExecutionAttribute<AtomicInteger> ATTEMPTS =
            new ExecutionAttribute<>("weir.s3.attempts");

    private final EnumMap<S3RequestCounts.Kind, LongAdder> counts =
            new EnumMap<>(S3RequestCounts.Kind.class);

    S3RequestCounter() {
        for (S3RequestCounts.Kind kind : S3RequestCounts.Kind.values()) {
            counts.put(kind, new LongAdder());
        }
    }

    @Override
    public void beforeTransmission(
            Context.BeforeTransmission context, ExecutionAttributes attributes) {
        counts.get(kindOf(context.request())).increment();
        AtomicInteger attempts = attributes.getAttribute(ATTEMPTS);
        if (attempts != null) {
            attempts.incrementAndGet();
        }
    }

    S3RequestCounts snapshot() {
        EnumMap<S3RequestCounts.Kind, Long> out = new EnumMap<>(S3RequestCounts.Kind.class);
        counts.forEach((kind, adder) -> out.put(kind, adder.sum()));
        return new S3RequestCounts(out);
    }

    private static S3RequestCounts.Kind kindOf(SdkRequest request) {
        if (request instanceof GetObjectRequest) {
            return S3RequestCounts.Kind.GET;
        } else if (request instanceof HeadObjectRequest) {
            return S3RequestCounts.Kind.HEAD;
        } else if (request instanceof PutObjectRequest) {
            return S3RequestCounts.Kind.PUT;
        } else if (request instanceof ListObjectsV2Request) {
            return S3RequestCounts.Kind.LIST;
        } else if (request instanceof DeleteObjectRequest
                || request instanceof DeleteObjectsRequest) {
            return S3RequestCounts.Kind.DELETE;
        } else if (request instanceof CreateMultipartUploadRequest) {
            return S3RequestCounts.Kind.CREATE_MULTIPART;
        } else if (request instanceof UploadPartRequest) {
            return S3RequestCounts.Kind.UPLOAD_PART;
        } else if (request instanceof CompleteMultipartUploadRequest) {
            return S3RequestCounts.Kind.COMPLETE_MULTIPART;
        } else if (request instanceof AbortMultipartUploadRequest) {
            return S3RequestCounts.Kind.ABORT_MULTIPART;
        }
        return S3RequestCounts.Kind.OTHER;
    }
}
