package io.weir.cli.format;

import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.utils.print.RowDataToStringConverter;

import java.util.Iterator;

/** Prints the rows of a result as they arrive. */
public interface ResultPrinter {

    /**
     * Prints a result.
     *
     * @param schema the result's columns
     * @param converter renders a row's fields as Flink's SQL client does (CAST to STRING)
     * @param rows the rows; for a changelog each row's kind says what it does
     * @param changelog whether to print each row's kind ({@code +I}, {@code -U}, {@code +U}, {@code
     *     -D}) as a first column {@code op}
     */
    void print(
            ResolvedSchema schema,
            RowDataToStringConverter converter,
            Iterator<RowData> rows,
            boolean changelog);

    /** Prints text as it is (an EXPLAIN plan). */
    void printRaw(String text);
}
