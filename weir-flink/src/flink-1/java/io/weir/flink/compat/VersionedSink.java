package io.weir.flink.compat;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;

/**
 * A sink of Flink 1.20, whose {@code Sink} still declares the deprecated, abstract {@code
 * createWriter(InitContext)}. Flink calls {@code createWriter(WriterInitContext)}, which Weir's
 * sinks implement; this variant is never called. Flink 2 removed it, and weir-flink-2's copy of
 * this interface declares nothing.
 */
public interface VersionedSink<IN> extends Sink<IN> {
    @Override
    @Deprecated
    default SinkWriter<IN> createWriter(Sink.InitContext context) {
        throw new UnsupportedOperationException(
                "Weir's sink writers are created with createWriter(WriterInitContext)");
    }
}
