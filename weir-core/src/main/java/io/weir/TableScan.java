package io.weir;

import io.weir.data.RowReader;
import io.weir.data.RowReaders;
import io.weir.expressions.Expression;
import io.weir.types.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads one snapshot of a table: {@code table.newScan().select("id", "v").filter(f).plan()}, then
 * {@link #open} each task (e.g. in parallel, one per reader). Rows come out merged (one row per
 * primary key, the latest), projected, filtered, with kind +I.
 *
 * <p>Filters prune partitions and files by metadata first (without opening files), then filter
 * rows. For tables with a primary key, a file is skipped only where that is safe: by partition, by
 * key range for filters on the first key column, and a whole file group by column statistics only
 * when no file of the group can match.
 */
public interface TableScan {
    /** Read the table as of this commit (default: the latest). */
    TableScan useSnapshot(long commitId);

    /** Read the table as of this time: the latest commit at or before it. */
    TableScan asOfTime(long timestampMillis);

    /** Read only these columns, in this order (default: all). */
    TableScan select(List<String> columns);

    default TableScan select(String... columns) {
        return select(List.of(columns));
    }

    /** Read only rows that match (default: all). */
    TableScan filter(Expression filter);

    /** The snapshot this scan reads. */
    Snapshot snapshot();

    /**
     * Return rows in the columns of this schema version (default: the schema of the snapshot read,
     * so that time travel returns a past snapshot with its own columns). Files of other versions
     * are mapped onto it by field id (docs/format.md, "Schema evolution").
     */
    TableScan useSchema(int schemaId);

    /** The schema version and options this scan reads with. */
    TableMetadata metadata();

    /** The type of the rows this scan returns. */
    RowType readType();

    /** The file groups to read, after pruning. */
    List<ScanTask> plan();

    /** Reads one planned task. */
    RowReader open(ScanTask task);

    /**
     * The number of rows {@link #open} returns for {@code task}: from file metadata when the scan
     * has no filter and the task is base files of one sequence (the output of one compaction or
     * bulk write: live rows, unique keys), else by reading the task.
     */
    long count(ScanTask task);

    /** The number of rows the scan returns: {@link #count(ScanTask)} summed over {@link #plan}. */
    default long count() {
        long rows = 0;
        for (ScanTask task : plan()) {
            rows += count(task);
        }
        return rows;
    }

    /** Reads every planned task, one after another. */
    default RowReader rows() {
        return RowReaders.concat(new ArrayList<>(plan()), this::open);
    }
}
