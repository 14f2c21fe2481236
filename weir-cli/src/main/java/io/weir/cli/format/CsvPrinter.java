package io.weir.cli.format;

import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.utils.print.RowDataToStringConverter;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Prints results as RFC 4180 CSV: a header row with the column names, then one record per row.
 * Fields are rendered as Flink's SQL client renders them (CAST to STRING); a null is an empty
 * field, an empty string is {@code ""}; a field is quoted when it holds a comma, a quote, a line
 * break or is empty; quotes double. Records end with LF. For a changelog the first column is {@code
 * op} with the row kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}). Each result is one CSV
 * block; blocks are separated by an empty line.
 */
final class CsvPrinter implements ResultPrinter {
    private final PrintWriter out;
    private boolean first = true;

    CsvPrinter(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void print(
            ResolvedSchema schema,
            RowDataToStringConverter converter,
            Iterator<RowData> rows,
            boolean changelog) {
        separate();
        List<String> header = new ArrayList<>();
        if (changelog) {
            header.add("op");
        }
        header.addAll(schema.getColumnNames());
        printRecord(header);
        List<String> record = new ArrayList<>(header.size());
        while (rows.hasNext()) {
            RowData row = rows.next();
            String[] values = converter.convert(row);
            record.clear();
            if (changelog) {
                record.add(row.getRowKind().shortString());
            }
            for (int i = 0; i < row.getArity(); i++) {
                record.add(row.isNullAt(i) ? null : values[i]);
            }
            printRecord(record);
        }
        out.flush();
    }

    @Override
    public void printRaw(String text) {
        separate();
        out.println(text);
        out.flush();
    }

    private void separate() {
        if (!first) {
            out.print('\n');
        }
        first = false;
    }

    private void printRecord(List<String> fields) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            appendField(sb, fields.get(i));
        }
        sb.append('\n');
        out.print(sb);
        out.flush();
    }

    /** Appends one field: null is empty, everything else quoted when it has to be. */
    static void appendField(StringBuilder sb, String value) {
        if (value == null) {
            return;
        }
        boolean quote = value.isEmpty();
        for (int i = 0; i < value.length() && !quote; i++) {
            char c = value.charAt(i);
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) {
            sb.append(value);
            return;
        }
        sb.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                sb.append('"');
            }
            sb.append(c);
        }
        sb.append('"');
    }
}
