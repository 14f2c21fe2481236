package io.weir.flink.source.internal;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * A reader tells the enumerator which snapshots it still needs: sent when it starts (with the
 * splits restored from a checkpoint) and whenever it finished a split. The enumerator's lease must
 * cover them (and the splits it assigned that the reader had not received yet).
 *
 * @param received how many splits the reader received from the enumerator since it started
 * @param oldestCommit the oldest commit any split it holds reads ({@link ReadFloors#of}), or {@link
 *     ReadFloors#NONE}
 */
public record ReaderHoldsEvent(long received, long oldestCommit) implements SourceEvent {
    private static final long serialVersionUID = 1L;
}
