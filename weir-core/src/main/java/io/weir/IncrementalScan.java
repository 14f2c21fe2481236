package io.weir;

import io.weir.data.RowReader;
import io.weir.data.RowReaders;
import io.weir.expressions.Expression;
import io.weir.types.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the net changes between two snapshots: {@code table.newIncrementalScan().between(5, 9)}
 * returns, for every primary key whose row differs between commit 5 and commit 9, +I (new key), -D
 * (removed key), or -U and +U (old and new row). Compactions change nothing and yield nothing. For
 * append-only tables the rows appended in between are returned as +I and rows removed by an
 * overwrite as -D; rows have no identity there, so an equal row may appear as both (applying the
 * changes to the start state always gives the end state).
 */
public interface IncrementalScan {
    /** The changes after commit {@code fromExclusive} up to and including {@code toInclusive}. */
    IncrementalScan between(long fromExclusive, long toInclusive);

    IncrementalScan select(List<String> columns);

    default IncrementalScan select(String... columns) {
        return select(List.of(columns));
    }

    /** Keep only changes whose row (old or new) matches. */
    IncrementalScan filter(Expression filter);

    /**
     * Return changes in the columns of this schema version (default: the table's current one).
     * Files of other versions are mapped onto it by field id (docs/format.md, "Schema evolution").
     */
    IncrementalScan useSchema(int schemaId);

    /** The schema version and options this scan reads with. */
    TableMetadata metadata();

    RowType readType();

    /** One task per file group that any commit in the range touched. */
    List<ChangeTask> plan();

    RowReader open(ChangeTask task);

    default RowReader rows() {
        return RowReaders.concat(new ArrayList<>(plan()), this::open);
    }
}
