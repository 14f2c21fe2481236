package io.weir.read;

import io.weir.ColumnStats;
import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.DoubleTexts;
import io.weir.data.RowReader;
import io.weir.data.Timestamp;
import io.weir.exceptions.ValidationException;
import io.weir.types.DataType;
import io.weir.types.Field;
import io.weir.types.RowType;
import io.weir.types.TypeRoot;
import io.weir.types.TypeWidening;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads rows written under one schema version as rows of another (docs/format.md, "Schema
 * evolution"): fields are matched by id, so a renamed column keeps its values; a field the file
 * lacks (added later, or a column the read schema has and the file's schema dropped) reads as null;
 * a field of the file that the read schema lacks is skipped; a value whose type was widened since
 * is converted. A value cannot be narrowed: reading a file written after a widening with the schema
 * from before it fails, naming the column.
 *
 * <p>The per-row copy costs what a merge does; it applies only to files of another schema version
 * with a different layout, which compaction rewrites into the latest one.
 */
public final class SchemaMapping {
    private final RowType read;
    private final Converter[] converters;
    private final int[] sources;
    private final boolean identity;
    private final Map<Integer, Field> fileFields = new HashMap<>();

    private SchemaMapping(RowType written, RowType read, String file, String location) {
        this.read = read;
        this.converters = new Converter[read.size()];
        this.sources = new int[read.size()];
        Map<Integer, Integer> positions = new HashMap<>();
        for (int i = 0; i < written.size(); i++) {
            positions.put(written.field(i).id(), i);
            fileFields.put(written.field(i).id(), written.field(i));
        }
        boolean same = written.size() == read.size();
        for (int i = 0; i < read.size(); i++) {
            Field target = read.field(i);
            Integer source = positions.get(target.id());
            sources[i] = source == null ? -1 : source;
            if (source == null) {
                converters[i] = (row, from, out, to) -> out.setNullAt(to);
                same = false;
                continue;
            }
            DataType from = written.type(source);
            if (!TypeWidening.allowed(from.asNullable(), target.type().asNullable())) {
                throw new ValidationException(
                        "Cannot read file "
                                + file
                                + " of table "
                                + location
                                + ": its column '"
                                + written.field(source).name()
                                + "' is "
                                + from
                                + ", which cannot be read as "
                                + target.type()
                                + " (column '"
                                + target.name()
                                + "'); the file was written after the column's type was widened:"
                                + " read it with the table's latest schema (restart the job)");
            }
            converters[i] = converter(from, target.type());
            same &= source == i && layoutEquals(from, target.type());
        }
        this.identity = same;
    }

    /**
     * The mapping from rows of {@code written} to rows of {@code read}.
     *
     * @param file the file being read, for errors
     * @param location the table, for errors
     * @throws ValidationException if a value of the file cannot be read as the read type
     */
    public static SchemaMapping between(
            RowType written, RowType read, String file, String location) {
        return new SchemaMapping(written, read, file, location);
    }

    /** Whether rows of the file are rows of the read type as they are. */
    public boolean isIdentity() {
        return identity;
    }

    /** {@code rows} (of the written type) as rows of the read type. */
    public RowReader map(RowReader rows) {
        if (identity) {
            return rows;
        }
        BinaryRowWriter writer = new BinaryRowWriter(read.size());
        return new RowReader() {
            private BinaryRow current;

            @Override
            public boolean next() {
                if (!rows.next()) {
                    return false;
                }
                BinaryRow row = rows.row();
                writer.reset();
                writer.writeRowKind(row.rowKind());
                for (int i = 0; i < converters.length; i++) {
                    int from = sources[i];
                    if (from >= 0 && row.isNullAt(from)) {
                        writer.setNullAt(i);
                    } else {
                        converters[i].convert(row, from, writer, i);
                    }
                }
                current = writer.complete();
                return true;
            }

            @Override
            public BinaryRow row() {
                return current;
            }

            @Override
            public void close() {
                rows.close();
            }
        };
    }

    /**
     * The statistics of a file of the written schema that are sound for the read schema, keyed by
     * the read schema's field ids: those of fields whose values keep their order and texts ({@link
     * TypeWidening#keepsStatistics}).
     */
    public Map<Integer, ColumnStats> statistics(Map<Integer, ColumnStats> stats) {
        if (identity) {
            return stats;
        }
        Map<Integer, ColumnStats> kept = new HashMap<>();
        for (Field target : read.fields()) {
            Field source = fileFields.get(target.id());
            ColumnStats s = stats.get(target.id());
            if (source != null
                    && s != null
                    && TypeWidening.keepsStatistics(source.type(), target.type())) {
                kept.put(target.id(), s);
            }
        }
        return kept;
    }

    /** Whether values of the two types have the same bytes in a row. */
    private static boolean layoutEquals(DataType a, DataType b) {
        if (a.root() != b.root()) {
            return false;
        }
        return switch (a.root()) {
            case DECIMAL -> a.isFixedLength() == b.isFixedLength() && a.scale() == b.scale();
            case TIMESTAMP, TIMESTAMP_LTZ -> a.isFixedLength() == b.isFixedLength();
            default -> true;
        };
    }

    /** Writes a non-null value of a file's row into the read row. */
    @FunctionalInterface
    private interface Converter {
        void convert(BinaryRow row, int from, BinaryRowWriter out, int to);
    }

    private static Converter converter(DataType from, DataType to) {
        if (layoutEquals(from, to)) {
            return (row, f, out, t) -> out.copy(t, row, f, to);
        }
        if (to.root() == TypeRoot.VARCHAR && from.root() != TypeRoot.VARCHAR) {
            return toText(from);
        }
        return switch (to.root()) {
            case SMALLINT -> (row, f, out, t) -> out.writeShort(t, row.getByte(f));
            case INT ->
                    from.root() == TypeRoot.TINYINT
                            ? (row, f, out, t) -> out.writeInt(t, row.getByte(f))
                            : (row, f, out, t) -> out.writeInt(t, row.getShort(f));
            case BIGINT ->
                    switch (from.root()) {
                        case TINYINT -> (row, f, out, t) -> out.writeLong(t, row.getByte(f));
                        case SMALLINT -> (row, f, out, t) -> out.writeLong(t, row.getShort(f));
                        default -> (row, f, out, t) -> out.writeLong(t, row.getInt(f));
                    };
            case DOUBLE -> (row, f, out, t) -> out.writeDouble(t, row.getFloat(f));
            case DECIMAL ->
                    (row, f, out, t) ->
                            out.writeDecimal(
                                    t,
                                    row.getDecimal(f, from.precision(), from.scale()),
                                    to.precision(),
                                    to.scale());
            default -> throw new IllegalStateException("No conversion " + from + " -> " + to);
        };
    }

    /**
     * The text of a value converted to STRING (docs/format.md, "Schema evolution"): as SQL's CAST
     * to STRING writes it, with TIMESTAMP_LTZ in UTC.
     */
    private static Converter toText(DataType from) {
        return switch (from.root()) {
            case CHAR -> (row, f, out, t) -> out.copy(t, row, f, from);
            case BINARY, VARBINARY ->
                    (row, f, out, t) -> out.writeBinary(t, WellFormedUtf8.of(row.getBinary(f)));
            default ->
                    (row, f, out, t) ->
                            out.writeBinary(t, text(row, f, from).getBytes(StandardCharsets.UTF_8));
        };
    }

    static String text(BinaryRow row, int pos, DataType type) {
        return switch (type.root()) {
            case BOOLEAN -> String.valueOf(row.getBoolean(pos));
            case TINYINT -> String.valueOf(row.getByte(pos));
            case SMALLINT -> String.valueOf(row.getShort(pos));
            case INT -> String.valueOf(row.getInt(pos));
            case BIGINT -> String.valueOf(row.getLong(pos));
                // As the DOUBLE it widens to: a FLOAT column widened to DOUBLE and then to STRING
                // reads the same text whether its file was compacted in between or not.
            case FLOAT -> DoubleTexts.of(row.getFloat(pos));
            case DOUBLE -> DoubleTexts.of(row.getDouble(pos));
            case DECIMAL -> row.getDecimal(pos, type.precision(), type.scale()).toPlainString();
            case DATE -> LocalDate.ofEpochDay(row.getInt(pos)).toString();
            case TIME -> time(LocalTime.ofNanoOfDay(row.getInt(pos) * 1_000_000L), type);
            case TIMESTAMP, TIMESTAMP_LTZ ->
                    timestamp(row.getTimestamp(pos, type.precision()), type);
            case CHAR, VARCHAR -> row.getString(pos);
            case BINARY, VARBINARY ->
                    new String(WellFormedUtf8.of(row.getBinary(pos)), StandardCharsets.UTF_8);
        };
    }

    private static String timestamp(Timestamp ts, DataType type) {
        LocalDateTime t =
                type.root() == TypeRoot.TIMESTAMP_LTZ
                        ? LocalDateTime.ofInstant(ts.toInstant(), ZoneOffset.UTC)
                        : ts.toLocalDateTime();
        return t.toLocalDate() + " " + time(t.toLocalTime(), type);
    }

    /** {@code HH:mm:ss}, then a fraction of exactly the type's precision in digits. */
    private static String time(LocalTime t, DataType type) {
        String text = String.format("%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
        int precision = type.precision();
        if (precision == 0) {
            return text;
        }
        String nanos = String.format("%09d", t.getNano());
        return text + "." + nanos.substring(0, precision);
    }
}
