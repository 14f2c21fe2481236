package io.weir.bench.e2e;

import io.weir.bench.e2e.gen.Workload;
import io.weir.bench.e2e.job.JobSettings;
import io.weir.bench.e2e.job.Phase;
import io.weir.bench.e2e.job.SinkKind;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Made-up run results for tests of the aggregation and the report. */
final class Results {
    private Results() {}

    /** A run that took {@code seconds} and {@code cpu} CPU seconds to ingest. */
    static RunResult run(SinkKind sink, Workload w, long rows, double seconds, double cpu) {
        Map<Phase, PhaseFigures> phases = new EnumMap<>(Phase.class);
        phases.put(Phase.INGEST, new PhaseFigures(seconds, cpu, 0.5, 900, 1_000_000, -1));
        return new RunResult(
                settings(sink, w, rows, List.of(Phase.INGEST, Phase.VERIFY)),
                phases,
                sink.writesTable()
                        ? JsonNodeFactory.instance.objectNode().put("verified", true)
                        : null,
                null);
    }

    /** A lifecycle run with every phase. */
    static RunResult lifecycle(SinkKind sink, Workload w, long rows) {
        Map<Phase, PhaseFigures> phases = new EnumMap<>(Phase.class);
        phases.put(Phase.INGEST, new PhaseFigures(10, 18, 0.5, 900, 2_000_000, -1));
        phases.put(Phase.COMPACT, new PhaseFigures(5, 8, 0.1, 950, 3_000_000, -1));
        phases.put(Phase.COUNT, new PhaseFigures(2, 3, 0.0, 950, 3_000_000, rows / 5));
        phases.put(Phase.SCAN, new PhaseFigures(3, 5, 0.1, 950, 3_000_000, -1));
        return new RunResult(
                settings(sink, w, rows, List.of(Phase.values())),
                phases,
                JsonNodeFactory.instance.objectNode().put("verified", true),
                null);
    }

    static RunResult failed(SinkKind sink, Workload w, long rows) {
        return new RunResult(
                settings(sink, w, rows, List.of(Phase.INGEST)), Map.of(), null, "exited with 1");
    }

    static JobSettings settings(SinkKind sink, Workload w, long rows, List<Phase> phases) {
        return JobSettings.builder(sink, w, rows, Path.of("/tmp/x")).phases(phases).build();
    }
}
