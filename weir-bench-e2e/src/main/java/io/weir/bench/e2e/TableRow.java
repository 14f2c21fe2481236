package io.weir.bench.e2e;

import java.util.function.DoubleSupplier;

/**
 * A row of a Markdown table, written cell by cell: {@code | a | b |}. A store report's row has a
 * cell for each of the store's counters, which only runs on the store have.
 */
final class TableRow {
    private final StringBuilder md;

    TableRow(StringBuilder md) {
        this.md = md;
        md.append('|');
    }

    TableRow cell(String text) {
        md.append(' ').append(text).append(" |");
        return this;
    }

    /** A value formatted ({@link StoreFigures#num}). */
    TableRow num(double value, String format) {
        return cell(StoreFigures.num(value, format));
    }

    /** A store counter's figure; "–" for a run on local disk, where it is not computed. */
    TableRow remote(boolean remote, DoubleSupplier value, String format) {
        return cell(remote ? StoreFigures.num(value.getAsDouble(), format) : "–");
    }

    /** Ends the row. */
    void end() {
        md.append('\n');
    }
}
