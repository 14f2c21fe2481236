package io.weir.flink.source;

import org.apache.flink.configuration.DescribedEnum;
import org.apache.flink.configuration.description.InlineElement;

import static org.apache.flink.configuration.description.TextElement.text;

/**
 * Where a read starts. {@link #toString()} is the option value ({@code 'full'}, {@code 'latest'},
 * {@code 'from-snapshot'}), which is how Flink's options parse it.
 */
public enum StartMode implements DescribedEnum {
    /**
     * Read a snapshot (the latest, or the one chosen by snapshot id or timestamp) as +I rows; a
     * streaming read then follows the commits after it.
     */
    FULL(
            "full",
            "Read a snapshot (the latest, or the one chosen by 'scan.snapshot-id' or"
                    + " 'scan.timestamp') as inserts; in streaming, then follow the commits after"
                    + " it as changes."),
    /** Streaming: only the changes of commits made after the read starts. Bounded: as FULL. */
    LATEST(
            "latest",
            "Streaming: only the changes of commits made after the job starts. Batch: the latest"
                    + " snapshot."),
    /**
     * The changes of the commits from a given commit id (inclusive), or from the first commit at or
     * after a timestamp, without an initial snapshot. Bounded reads stop at the latest commit when
     * the read starts.
     */
    FROM_SNAPSHOT(
            "from-snapshot",
            "The changes of the commits from 'scan.snapshot-id' (inclusive) or from the first"
                    + " commit at or after 'scan.timestamp', without an initial snapshot; in batch"
                    + " up to the latest commit when the job starts.");

    private final String value;
    private final String description;

    StartMode(String value, String description) {
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
