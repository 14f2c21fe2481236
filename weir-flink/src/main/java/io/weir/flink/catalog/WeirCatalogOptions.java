package io.weir.flink.catalog;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.catalog.CommonCatalogOptions;

/** The options of {@code CREATE CATALOG c WITH ('type' = 'weir', ...)}. */
public final class WeirCatalogOptions {
    private WeirCatalogOptions() {}

    public static final ConfigOption<String> WAREHOUSE =
            ConfigOptions.key("warehouse")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Root directory of the catalog: a local path, a file: URI,"
                                    + " s3://bucket/path or hdfs://namenode/path. Database"
                                    + " 'db' is the directory '<warehouse>/db.db' and its table 't'"
                                    + " lives at '<warehouse>/db.db/t'.");

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOptions.key(CommonCatalogOptions.DEFAULT_DATABASE_KEY)
                    .stringType()
                    .defaultValue("default")
                    .withDescription(
                            "The catalog's current database after USE CATALOG; created if missing.");
}
