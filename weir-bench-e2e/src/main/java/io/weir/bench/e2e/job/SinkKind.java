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
            List.of("hudi", "hadoop")),
    // ./weir bench --flink 2.3: the same sinks on Flink 2.3 (system() names the sink they are).
    BLACKHOLE2("Flink blackhole (Flink 2.3.0)", "2.3.0", List.of()),
    WEIR2("Weir 0.1.0-SNAPSHOT (weir-flink-2 connector jar)", "2.3.0", List.of("weir-2")),
    PAIMON2(
            "Apache Paimon 1.4.2 (paimon-flink-2.0 + hadoop-client-api/-runtime 3.3.6)",
            "2.3.0",
            List.of("paimon-2", "hadoop"));

    /** The Flink lines {@code --flink} takes. */
    public static final List<String> FLINK_LINES = List.of("1.20", "2.3");

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
     * blackhole117}, and on Flink 2.3 {@code weir2}, {@code paimon2}, {@code blackhole2}.
     */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The sink this is, whatever the Flink it runs on: {@code WEIR} for {@code WEIR2}, and so on.
     * Jobs and reports treat a sink by what it is; only the classpath and the labels differ.
     */
    public SinkKind system() {
        return switch (this) {
            case WEIR2 -> WEIR;
            case PAIMON2 -> PAIMON;
            case BLACKHOLE2 -> BLACKHOLE;
            default -> this;
        };
    }

    /**
     * The sinks that run on a Flink line of {@link #FLINK_LINES} (also spelled as its release, and
     * the Flink 2 line as {@code 2} or {@code 2.x}), the default set of a suite.
     */
    public static List<SinkKind> onFlink(String line) {
        return switch (line) {
            case "1.20", "1.20.3" -> List.of(WEIR, PAIMON, HUDI, BLACKHOLE, SHUFFLE, BLACKHOLE117);
            case "2.3", "2.3.0", "2", "2.x" -> List.of(WEIR2, PAIMON2, BLACKHOLE2);
            default ->
                    throw new IllegalArgumentException(
                            "Unknown Flink version '"
                                    + line
                                    + "': the benchmark runs on Flink "
                                    + String.join(" or ", FLINK_LINES));
        };
    }

    /**
     * This sink on another Flink line ({@code --flink}): {@code weir} on 2.3 is {@code weir2}, or
     * an error naming the sinks of that line.
     */
    public SinkKind on(String line) {
        for (SinkKind kind : onFlink(line)) {
            if (kind.system() == system()) {
                return kind;
            }
        }
        throw new IllegalArgumentException(
                "The sink '"
                        + system().id()
                        + "' does not run on Flink "
                        + line
                        + "; there the sinks are "
                        + String.join(
                                ", ", onFlink(line).stream().map(k -> k.system().id()).toList()));
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
        return this == BLACKHOLE || this == BLACKHOLE117 || this == BLACKHOLE2;
    }

    /** The blackhole run on the same Flink: the ceiling this sink's figures are relative to. */
    public SinkKind ceiling() {
        for (SinkKind kind : values()) {
            if (kind.isCeiling() && kind.flinkVersion.equals(flinkVersion)) {
                return kind;
            }
        }
        throw new IllegalStateException("No blackhole runs on Flink " + flinkVersion);
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
