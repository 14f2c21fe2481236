package io.weir.cli.format;

import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.utils.print.PrintStyle;
import org.apache.flink.table.utils.print.RowDataToStringConverter;
import org.apache.flink.table.utils.print.TableauStyle;

import java.io.PrintWriter;
import java.util.Iterator;
import java.util.function.IntSupplier;

/**
 * Prints results as Flink's SQL client does in tableau mode. A changelog (a query in streaming
 * mode) is printed row by row as it arrives, with column widths derived from the column types and
 * an {@code op} column first; a bounded result is printed when complete, with widths fitted to the
 * values. Nulls print as {@code <NULL>}.
 */
final class TableauPrinter implements ResultPrinter {
    private final PrintWriter out;
    private final IntSupplier maxColumnWidth;

    TableauPrinter(PrintWriter out, IntSupplier maxColumnWidth) {
        this.out = out;
        this.maxColumnWidth = maxColumnWidth;
    }

    @Override
    public void print(
            ResolvedSchema schema,
            RowDataToStringConverter converter,
            Iterator<RowData> rows,
            boolean changelog) {
        int width = maxColumnWidth.getAsInt();
        TableauStyle style =
                changelog
                        ? PrintStyle.tableauWithTypeInferredColumnWidths(
                                schema, converter, width, false, true)
                        : PrintStyle.tableauWithDataInferredColumnWidths(
                                schema, converter, width, false, false);
        style.print(rows, out);
        out.flush();
    }

    @Override
    public void printRaw(String text) {
        out.println(text);
        out.flush();
    }
}
