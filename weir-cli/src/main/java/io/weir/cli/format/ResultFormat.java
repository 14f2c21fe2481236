package io.weir.cli.format;

import java.io.PrintWriter;
import java.util.function.IntSupplier;

/** How {@code weir sql} prints query results. */
public enum ResultFormat {
    /** A table like the Flink SQL client's tableau mode. */
    TABLE,
    /** RFC 4180 CSV with a header row, for scripts. */
    CSV;

    /**
     * A printer to {@code out}; {@code maxColumnWidth} is asked at each result (tables cut longer
     * values).
     */
    public ResultPrinter newPrinter(PrintWriter out, IntSupplier maxColumnWidth) {
        return switch (this) {
            case TABLE -> new TableauPrinter(out, maxColumnWidth);
            case CSV -> new CsvPrinter(out);
        };
    }
}
