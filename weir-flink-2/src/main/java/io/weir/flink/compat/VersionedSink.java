package io.weir.flink.compat;

import org.apache.flink.api.connector.sink2.Sink;

/**
 * A sink of Flink 2. Flink 1.20's copy of this interface implements the deprecated {@code
 * createWriter(InitContext)} that Flink 2 removed; here there is nothing to add.
 */
public interface VersionedSink<IN> extends Sink<IN> {}
