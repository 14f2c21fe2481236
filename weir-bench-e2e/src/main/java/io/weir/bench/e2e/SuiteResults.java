package io.weir.bench.e2e;

import java.time.Instant;
import java.util.List;

/** Everything a suite measured, for the report. */
record SuiteResults(
        Instant start,
        Instant end,
        String loadBefore,
        String loadAfter,
        double rowsScale,
        int repeat,
        List<RunResult> ingestion,
        List<RunResult> lifecycles) {

    SuiteResults {
        ingestion = List.copyOf(ingestion);
        lifecycles = List.copyOf(lifecycles);
    }
}
