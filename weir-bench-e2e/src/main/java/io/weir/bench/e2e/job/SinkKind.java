package io.weir.bench.e2e.job;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The sinks of the benchmark, each run in its own JVM on its own classpath: the named sets of jars
 * under {@code bench-lib/} (docs/benchmark.md).
 */
public enum SinkKind {
    BLACKHOLE("Flink blackhole (Flink 1.20.3)", "1.20.3", List.of()),
    SHUFFLE(
            "bucket shuffle into a discarding sink (Flink 1.20.3; weir-bench-shuffle)",
            "1.20.3",
            List.of()),
    WEIR("Weir 0.1.0-SNAPSHOT (weir-flink connector jar)", "1.20.3", List.of("weir")),
    PAIMON(
            "Apache Paimon 1.3.1 (paimon-flink-1.20 + hadoop-client-api/-runtime 3.3.6)",
            "1.20.3",
            List.of("paimon", "hadoop")),
    BLACKHOLE117("Flink blackhole (Flink 1.17.2, Hudi's ceiling)", "1.17.2", List.of()),
    HUDI(
            "Apache Hudi 0.14.0 (hudi-flink1.17-bundle + hadoop-client-api/-runtime 3.3.6)",
            "1.17.2",
            List.of("hudi", "hadoop"));

    private final String product;
    private final String flinkVersion;
    private final List<String> connectorLibs;

    SinkKind(String product, String flinkVersion, List<String> connectorLibs) {
        this.product = product;
        this.flinkVersion = flinkVersion;
        this.connectorLibs = connectorLibs;
    }

    /**
     * {@code weir}, {@code paimon}, {@code hudi}, {@code blackhole}, {@code shuffle}, {@code
     * blackhole117}.
     */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What runs, with its version. */
    public String product() {
        return product;
    }

    public String flinkVersion() {
        return flinkVersion;
    }

    /**
     * The bench-lib sets of the child's classpath, in classpath order: the connector's jars, then
     * Flink's.
     */
    public List<String> libs() {
        String flink = "flink-" + flinkVersion.substring(0, flinkVersion.lastIndexOf('.'));
        return Stream.concat(connectorLibs.stream(), Stream.of(flink)).toList();
    }

    /** Whether the sink writes a table (that can be read back, compacted and measured). */
    public boolean writesTable() {
        return !isCeiling() && this != SHUFFLE;
    }

    /** Whether this is a blackhole: the ceiling that the other sinks are measured against. */
    public boolean isCeiling() {
        return this == BLACKHOLE || this == BLACKHOLE117;
    }

    /** The blackhole run on the same Flink: the ceiling this sink's figures are relative to. */
    public SinkKind ceiling() {
        return flinkVersion.equals(BLACKHOLE117.flinkVersion) ? BLACKHOLE117 : BLACKHOLE;
    }

    public static SinkKind parse(String text) {
        for (SinkKind kind : values()) {
            if (kind.id().equalsIgnoreCase(text.trim())) {
                return kind;
            }
        }
        throw new IllegalArgumentException(
                "Unknown sink '"
                        + text
                        + "': expected weir, paimon, hudi, blackhole, shuffle or blackhole117");
    }
}
