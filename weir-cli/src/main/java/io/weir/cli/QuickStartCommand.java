package io.weir.cli;

import io.weir.Schema;
import io.weir.Table;
import io.weir.Tables;
import io.weir.cli.quickstart.QuickStartJob;
import io.weir.io.FileIO;
import io.weir.io.FileIOs;
import io.weir.options.StorageOptions;
import io.weir.types.DataTypes;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The quickstart: a streaming Flink job ingests a generated change stream (inserts, updates,
 * deletes) into a local Weir table, exactly once with checkpoints, printing each commit; then Flink
 * SQL reads the table back and the result is checked against the latest value of every key.
 */
@Command(
        name = "quickstart",
        description =
                "Stream generated order changes into a local Weir table with Flink, then query it"
                        + " with Flink SQL and check it holds the latest value of every key.")
public final class QuickStartCommand implements Callable<Integer> {
    @Option(
            names = {"--warehouse", "--dir"},
            paramLabel = "URI",
            description =
                    "The warehouse: a local directory, s3://bucket/path or hdfs://namenode/path"
                            + " (its table default.db/orders is replaced). Default:"
                            + " ${DEFAULT-VALUE}",
            defaultValue = "weir-quickstart")
    String warehouse;

    @Mixin StorageMixin storage;

    @Option(
            names = "--changes",
            description = "Changes to ingest. Default: ${DEFAULT-VALUE}",
            defaultValue = "2000000")
    long changes;

    @Option(
            names = "--keys",
            description = "Distinct orders. Default: ${DEFAULT-VALUE}",
            defaultValue = "200000")
    int keys;

    @Option(
            names = "--parallelism",
            description = "Writer parallelism. Default: ${DEFAULT-VALUE}",
            defaultValue = "2")
    int parallelism;

    @Option(
            names = "--checkpoint-interval-ms",
            description = "Checkpoint (and commit) interval. Default: ${DEFAULT-VALUE}",
            defaultValue = "1000")
    long checkpointIntervalMs;

    static Schema schema() {
        return Schema.builder()
                .column("order_id", DataTypes.BIGINT())
                .column("customer", DataTypes.STRING())
                .column("amount_cents", DataTypes.BIGINT())
                .column("status", DataTypes.STRING())
                .primaryKey("order_id")
                .build();
    }

    @Override
    public Integer call() throws Exception {
        StorageOptions options = storage.storage();
        String root =
                FileIOs.isLocal(warehouse)
                        ? Path.of(warehouse).toAbsolutePath().toString()
                        : warehouse.replaceAll("/+$", "");
        String location = root + "/default.db/orders";
        FileIO io = FileIOs.forLocation(location, options);
        io.deleteRecursively(location);
        Table table = Tables.create(io, location, schema(), Map.of("bucket", "4"));
        return new QuickStartJob(table, root, options, System.out)
                .run(changes, keys, parallelism, checkpointIntervalMs);
    }
}
