package io.weir.flink.sink;

import org.apache.flink.configuration.DescribedEnum;
import org.apache.flink.configuration.description.InlineElement;

import static org.apache.flink.configuration.description.TextElement.text;

/**
 * How a {@link WeirSink}'s writers write. {@link #toString()} is the value of the SQL option {@code
 * 'write.mode'} ({@code 'upsert'}, {@code 'bulk-insert'}), which is how Flink's options parse it.
 */
public enum WriteMode implements DescribedEnum {
    /**
     * Rows go to the writer's sort buffer and are flushed as log files at every checkpoint (and
     * when the buffer is full); compaction folds them into base files. Streaming and batch.
     */
    UPSERT(
            "upsert",
            "Rows go to the writer's sort buffer and are flushed as log files at each checkpoint"
                    + " (and when the buffer is full); compaction folds them into base files."
                    + " Streaming and batch."),
    /**
     * Batch only: each writer sorts all its rows, spilling to local disk, and writes sorted Parquet
     * base files at the end of the input (docs/bulk-insert.md).
     */
    BULK_INSERT(
            "bulk-insert",
            "Batch only: each writer sorts all its rows (spilling sorted runs to local disk when"
                    + " 'write-buffer-size' is full) and writes them at the end of the input as"
                    + " sorted Parquet base files, with nothing left to compact; one commit. The"
                    + " result is the same as 'upsert'.");

    private final String value;
    private final String description;

    WriteMode(String value, String description) {
        this.value = value;
        this.description = description;
    }

    @Override
    public String toString() {
        return value;
    }

    @Override
    public InlineElement getDescription() {
        return text(description);
    }
}
