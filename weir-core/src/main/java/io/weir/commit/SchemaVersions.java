package io.weir.commit;

import io.weir.Schema;
import io.weir.TableMetadata;
import io.weir.exceptions.CommitConflictException;
import io.weir.exceptions.ValidationException;
import io.weir.options.TableOptions;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A table's schema versions (docs/format.md §6.1). A version's file never changes once written, so
 * each is read at most once per instance, whatever state the log is at.
 */
final class SchemaVersions {
    private final MetadataFiles files;
    private final Clock clock;
    private final Map<Integer, TableMetadata> schemas = new ConcurrentHashMap<>();

    SchemaVersions(MetadataFiles files, Clock clock, TableMetadata first) {
        this.files = files;
        this.clock = clock;
        schemas.put(first.schemaId(), first);
    }

    TableMetadata get(int schemaId) {
        TableMetadata m = schemas.get(schemaId);
        if (m == null) {
            m = files.readSchema(schemaId);
            if (m == null) {
                throw new ValidationException(
                        "Cannot find schema "
                                + schemaId
                                + " of table "
                                + files.location()
                                + ": missing "
                                + files.paths().schema(schemaId));
            }
            schemas.put(schemaId, m);
        }
        return m;
    }

    List<Integer> ids() {
        return files.listedSchemaIds().stream().sorted().toList();
    }

    /** Writes the version after every listed one; a concurrent writer of that id wins. */
    TableMetadata add(Schema schema, TableOptions options) {
        int next = files.listedSchemaIds().stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
        TableMetadata metadata = new TableMetadata(next, schema, options, clock.millis());
        if (!files.writeSchema(metadata)) {
            throw new CommitConflictException(
                    "Cannot add schema "
                            + next
                            + " to table "
                            + files.location()
                            + ": another process wrote "
                            + files.paths().schema(next)
                            + " first");
        }
        schemas.put(next, metadata);
        return metadata;
    }
}
