package io.weir.schema;

import io.weir.CommitKind;
import io.weir.Schema;
import io.weir.Table;
import io.weir.TableMetadata;
import io.weir.UpdateSchema;
import io.weir.commit.CommitLog;
import io.weir.commit.CommitRequest;
import io.weir.exceptions.CommitConflictException;
import io.weir.exceptions.ValidationException;
import io.weir.merge.MergeFunctions;
import io.weir.options.TableOptions;
import io.weir.types.DataType;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The {@link UpdateSchema}: the changes are kept as a list and applied to the latest version when
 * committing, so that a retry after a concurrent schema change applies them to that one (and
 * refuses them if they no longer fit). The new version is written first ({@link
 * CommitLog#addSchema}), then a {@link CommitKind#SCHEMA} commit puts it in force, on the condition
 * that the version it was computed from is still current.
 */
public final class UpdateSchemaImpl implements UpdateSchema {
    private static final Logger LOG = LoggerFactory.getLogger(UpdateSchemaImpl.class);

    private final Table table;
    private final CommitLog log;
    private final List<Consumer<SchemaBuilder>> changes = new ArrayList<>();
    private final List<String> descriptions = new ArrayList<>();

    public UpdateSchemaImpl(Table table, CommitLog log) {
        this.table = table;
        this.log = log;
    }

    private UpdateSchema change(String description, Consumer<SchemaBuilder> change) {
        descriptions.add(description);
        changes.add(change);
        return this;
    }

    @Override
    public UpdateSchema addColumn(String name, DataType type, String comment, Position position) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(position, "position");
        return change(
                "ADD " + name + " " + type + " " + position,
                s -> s.addColumn(name, type, comment, position));
    }

    @Override
    public UpdateSchema dropColumn(String name) {
        return change("DROP " + name, s -> s.dropColumn(name));
    }

    @Override
    public UpdateSchema renameColumn(String name, String newName) {
        Objects.requireNonNull(newName, "newName");
        return change("RENAME " + name + " TO " + newName, s -> s.renameColumn(name, newName));
    }

    @Override
    public UpdateSchema updateColumnType(String name, DataType newType) {
        Objects.requireNonNull(newType, "newType");
        return change("MODIFY " + name + " " + newType, s -> s.updateColumnType(name, newType));
    }

    @Override
    public UpdateSchema makeColumnNullable(String name) {
        return change("MODIFY " + name + " NULL", s -> s.makeColumnNullable(name));
    }

    @Override
    public UpdateSchema updateColumnComment(String name, String comment) {
        return change("COMMENT " + name, s -> s.updateColumnComment(name, comment));
    }

    @Override
    public UpdateSchema moveColumn(String name, Position position) {
        Objects.requireNonNull(position, "position");
        return change("MOVE " + name + " " + position, s -> s.moveColumn(name, position));
    }

    @Override
    public UpdateSchema setOption(String key, String value) {
        Objects.requireNonNull(value, "value");
        return change("SET " + key, s -> s.setOption(key, value));
    }

    @Override
    public UpdateSchema resetOption(String key) {
        return change("RESET " + key, s -> s.resetOption(key));
    }

    @Override
    public TableMetadata commit() {
        int attempts = 0;
        while (true) {
            table.refresh();
            TableMetadata base = table.metadata();
            TableMetadata next = apply(base);
            if (next.schema().equals(base.schema()) && next.options().equals(base.options())) {
                return base;
            }
            try {
                TableMetadata added = log.addSchema(next.schema(), next.options());
                log.commit(
                        CommitRequest.builder(CommitKind.SCHEMA)
                                .schemaId(added.schemaId())
                                .requireSchema(base.schemaId())
                                .build());
                LOG.info(
                        "Changed the schema of table {} to version {}: {}",
                        table.location(),
                        added.schemaId(),
                        String.join(", ", descriptions));
                table.refresh();
                return added;
            } catch (CommitConflictException e) {
                if (++attempts > base.options().commitMaxRetries()) {
                    throw e;
                }
                LOG.info("Schema change of table {} conflicted, retrying: {}", table.location(), e);
            }
        }
    }

    /** The changes applied to {@code base}, checked as a table creation checks its metadata. */
    private TableMetadata apply(TableMetadata base) {
        SchemaBuilder builder = new SchemaBuilder(table.location(), base);
        changes.forEach(c -> c.accept(builder));
        Schema schema = builder.schema();
        Map<String, String> raw = new TreeMap<>(builder.options());
        TableMetadata next;
        try {
            next =
                    new TableMetadata(
                            base.schemaId() + 1,
                            schema,
                            TableOptions.of(raw),
                            System.currentTimeMillis());
            MergeFunctions.validate(next);
        } catch (IllegalArgumentException | ValidationException e) {
            throw new ValidationException(
                    "Cannot alter table " + table.location() + ": " + e.getMessage(), e);
        }
        return next;
    }
}
