package io.weir.service;

import io.weir.BucketLayout;
import io.weir.CommitKind;
import io.weir.CommitResult;
import io.weir.DataFile;
import io.weir.DataFilePaths;
import io.weir.Partition;
import io.weir.Rescale;
import io.weir.ScanTask;
import io.weir.Snapshot;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.TableScan;
import io.weir.commit.CommitLog;
import io.weir.commit.CommitOutcome;
import io.weir.commit.CommitRequest;
import io.weir.data.RowReader;
import io.weir.exceptions.CommitStateUnknownException;
import io.weir.exceptions.ValidationException;
import io.weir.options.TableOptions;
import io.weir.write.BulkWriteImpl;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@link Rescale} of a table or of one partition: the live rows of the partitions to change,
 * read from the current snapshot and sorted into the new file groups by the bulk writer, and one
 * OVERWRITE commit of those partitions that lands only on the snapshot that was read. A whole-table
 * rescale also puts a new schema version with the new {@code bucket} option in force; a partition's
 * files record a count that differs from their schema's option (docs/format.md §6.2). A writer
 * whose layout differs from a partition's fails its commit there ({@code CommitResolver} checks the
 * layout of added files). A table without a primary key places rows in buckets freely, so only its
 * option changes.
 */
public final class RescaleImpl implements Rescale {
    private static final Logger LOG = LoggerFactory.getLogger(RescaleImpl.class);

    private final Table table;
    private final CommitLog log;
    private int buckets = -1;
    private Map<String, String> partitionSpec;
    private String spillDirectory = System.getProperty("java.io.tmpdir");

    public RescaleImpl(Table table, CommitLog log) {
        this.table = table;
        this.log = log;
    }

    @Override
    public Rescale buckets(int buckets) {
        this.buckets = buckets;
        return this;
    }

    @Override
    public Rescale partition(Map<String, String> partition) {
        this.partitionSpec = new LinkedHashMap<>(Objects.requireNonNull(partition, "partition"));
        return this;
    }

    @Override
    public Rescale partition(String spec) {
        Map<String, String> values = new LinkedHashMap<>();
        String text = spec == null ? "" : spec.trim();
        for (String pair : text.isEmpty() ? new String[] {""} : text.split(",", -1)) {
            int eq = pair.indexOf('=');
            ValidationException.check(
                    eq > 0 && !pair.substring(0, eq).isBlank(),
                    "Cannot rescale table %s: invalid partition '%s': expected"
                            + " key=value[,key=value...], e.g. dt=2024-01-01",
                    table.location(),
                    spec);
            String key = pair.substring(0, eq).trim();
            ValidationException.check(
                    values.put(key, pair.substring(eq + 1).trim()) == null,
                    "Cannot rescale table %s: invalid partition '%s': key '%s' is given twice",
                    table.location(),
                    spec,
                    key);
        }
        return partition(values);
    }

    @Override
    public Rescale spillDirectory(String directory) {
        this.spillDirectory = Objects.requireNonNull(directory, "directory");
        return this;
    }

    @Override
    public CommitResult commit() {
        table.refresh();
        Snapshot base = table.currentSnapshot();
        TableMetadata current = table.metadata();
        Partition partition = partitionSpec == null ? null : resolvePartition(current, base);
        int to = buckets == -1 && partition != null ? current.options().bucket() : buckets;
        ValidationException.check(
                to >= 1 && to <= 32768,
                "Cannot rescale table %s to %s buckets: the number of buckets must be between 1"
                        + " and 32768",
                table.location(),
                buckets);
        Map<Partition, Integer> counts = BucketLayout.ofPartitions(base, table::metadata);
        // Rows of a table without a primary key are in buckets freely: nothing moves.
        Set<Partition> rewrite = new TreeSet<>();
        for (Map.Entry<Partition, Integer> e : counts.entrySet()) {
            if (e.getValue() != to
                    && current.schema().hasPrimaryKey()
                    && (partition == null || partition.equals(e.getKey()))) {
                rewrite.add(e.getKey());
            }
        }
        int fromOption = current.options().bucket();
        boolean newOption = partition == null && fromOption != to;
        if (rewrite.isEmpty() && !newOption) {
            return null;
        }
        TableMetadata next =
                newOption
                        ? log.addSchema(
                                current.schema(),
                                current.options()
                                        .with(
                                                Map.of(
                                                        TableOptions.BUCKET.key(),
                                                        String.valueOf(to))))
                        : current;
        String from =
                partition == null
                        ? String.valueOf(fromOption)
                        : String.valueOf(counts.get(partition));
        CommitRequest.Builder request =
                CommitRequest.builder(rewrite.isEmpty() ? CommitKind.APPEND : CommitKind.OVERWRITE)
                        .schemaId(next.schemaId())
                        .requireLatest(base.id())
                        .property(COMMIT_PROPERTY, from + " -> " + to);
        if (partition != null) {
            request.property(PARTITION_PROPERTY, partition.spec(current.schema().partitionKeys()));
        }
        // The bulk writer lays rows out by its metadata's option: the target count, under the
        // schema version the files name.
        TableMetadata layout =
                next.options().bucket() == to
                        ? next
                        : new TableMetadata(
                                next.schemaId(),
                                next.schema(),
                                next.options()
                                        .with(
                                                Map.of(
                                                        TableOptions.BUCKET.key(),
                                                        String.valueOf(to))),
                                next.createdMillis());
        List<DataFile> written = new ArrayList<>();
        try (BulkWriteImpl write =
                new BulkWriteImpl(
                        table.io(),
                        table.location(),
                        layout,
                        0,
                        current.options().writeBufferSize(),
                        Path.of(spillDirectory),
                        64)) {
            if (!rewrite.isEmpty()) {
                TableScan scan = table.newScan().useSnapshot(base.id());
                for (ScanTask task : scan.plan()) {
                    if (!rewrite.contains(task.fileGroup().partition())) {
                        continue;
                    }
                    try (RowReader rows = scan.open(task)) {
                        while (rows.next()) {
                            write.write(rows.row());
                        }
                    }
                }
                for (DataFile f : write.prepareCommit()) {
                    written.add(f.withTotalBuckets(to, next.options().bucket()));
                }
                request.overwritePartitions(rewrite).add(written).verifyAddedFiles();
            }
            CommitOutcome outcome;
            try {
                outcome = log.commit(request.build());
            } catch (CommitStateUnknownException e) {
                throw e; // the files may be committed: leave them to orphan removal
            } catch (RuntimeException e) {
                deleteQuietly(written);
                throw e;
            }
            LOG.info(
                    "Rescaled {} of table {} from {} to {} buckets in commit {}: {} partitions"
                            + " rewritten, {} files written",
                    partition == null
                            ? "every partition"
                            : "partition " + partition.spec(current.schema().partitionKeys()),
                    table.location(),
                    from,
                    to,
                    outcome.commit().id(),
                    rewrite.size(),
                    written.size());
            return new CommitResult(outcome.commit(), false);
        }
    }

    /** The partition the spec names; it must have rows in {@code base}. */
    private Partition resolvePartition(TableMetadata metadata, Snapshot base) {
        List<String> keys = metadata.schema().partitionKeys();
        ValidationException.check(
                metadata.schema().hasPrimaryKey(),
                "Cannot rescale a partition of table %s: it has no primary key, so its rows are"
                        + " placed in buckets freely and a partition has no layout to change;"
                        + " rescale the whole table to change its bucket option",
                table.location());
        ValidationException.check(
                !keys.isEmpty(),
                "Cannot rescale partition %s of table %s: the table is not partitioned; rescale"
                        + " the whole table (without a partition)",
                text(partitionSpec),
                table.location());
        ValidationException.check(
                keys.containsAll(partitionSpec.keySet()) && partitionSpec.size() == keys.size(),
                "Cannot rescale partition %s of table %s: a partition names a value for each of"
                        + " the partition keys %s, and nothing else",
                text(partitionSpec),
                table.location(),
                keys);
        List<String> values = new ArrayList<>();
        for (String key : keys) {
            String v = partitionSpec.get(key);
            values.add(Partition.NULL_TEXT.equals(v) ? null : v);
        }
        Partition partition = new Partition(values);
        boolean exists =
                base.fileGroups().keySet().stream().anyMatch(g -> g.partition().equals(partition));
        ValidationException.check(
                exists,
                "Cannot rescale partition %s of table %s: the table has no such partition as of"
                        + " commit %s (partition values are canonical texts, e.g."
                        + " dt=2024-01-01)",
                text(partitionSpec),
                table.location(),
                base.id());
        return partition;
    }

    private static String text(Map<String, String> spec) {
        StringBuilder sb = new StringBuilder();
        spec.forEach(
                (k, v) -> sb.append(sb.length() > 0 ? "," : "").append(k).append('=').append(v));
        return sb.toString();
    }

    private void deleteQuietly(List<DataFile> files) {
        for (DataFile f : files) {
            try {
                table.io().delete(DataFilePaths.resolve(table.location(), f.path()));
            } catch (java.io.IOException e) {
                // An orphan: orphan removal deletes it.
            }
        }
    }
}
