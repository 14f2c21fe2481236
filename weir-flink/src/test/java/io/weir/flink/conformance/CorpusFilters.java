package io.weir.flink.conformance;

import io.weir.Schema;
import io.weir.data.ValueStrings;
import io.weir.expressions.Expression;
import io.weir.expressions.Expressions;
import io.weir.types.DataType;
import io.weir.types.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random filters for the reader conformance corpus, each both as a Weir {@link Expression} (for the
 * Flink source) and as JSON for the native readers' tests (docs/readers.md, "Conformance"): {@code
 * ["=", column, text]} with the operators {@code = != < <= > >=}, {@code ["in", column, [texts]]},
 * {@code ["is_null", column]}, {@code ["is_not_null", column]}, {@code ["and", a, b]}, {@code
 * ["or", a, b]}, {@code ["not", a]}. A literal is the canonical text of a value (docs/format.md
 * §2.3) drawn from the rows written, so that filters select some rows; one in three predicates is
 * on a key or partition column, which exercises pruning.
 */
final class CorpusFilters {
    private static final String[] OPS = {"=", "!=", "<", "<=", ">", ">="};

    /** A filter in both forms. */
    record Filter(Expression expression, String json) {}

    private final RowType type;
    private final List<Integer> prunable = new ArrayList<>();
    private final List<Object[]> rows;
    private final Random random;

    CorpusFilters(Schema schema, List<Object[]> rows, long seed) {
        this.type = schema.rowType();
        for (int p : schema.primaryKeyPositions()) {
            prunable.add(p);
        }
        for (String k : schema.partitionKeys()) {
            prunable.add(type.indexOf(k));
        }
        this.rows = rows;
        this.random = new Random(seed);
    }

    Filter next() {
        return switch (random.nextInt(5)) {
            case 0 -> {
                Filter a = leaf();
                Filter b = leaf();
                yield new Filter(
                        Expressions.and(a.expression, b.expression),
                        "[\"and\", " + a.json + ", " + b.json + "]");
            }
            case 1 -> {
                Filter a = leaf();
                Filter b = leaf();
                yield new Filter(
                        Expressions.or(a.expression, b.expression),
                        "[\"or\", " + a.json + ", " + b.json + "]");
            }
            case 2 -> {
                Filter a = leaf();
                yield new Filter(Expressions.not(a.expression), "[\"not\", " + a.json + "]");
            }
            default -> leaf();
        };
    }

    private Filter leaf() {
        int pos =
                !prunable.isEmpty() && random.nextInt(3) == 0
                        ? prunable.get(random.nextInt(prunable.size()))
                        : random.nextInt(type.size());
        String name = type.field(pos).name();
        DataType t = type.type(pos);
        String text = text(pos, t);
        int kind = random.nextInt(10);
        if (kind == 0 || (text == null && kind < 8)) {
            return new Filter(Expressions.isNull(name), "[\"is_null\", " + quote(name) + "]");
        }
        if (kind == 1 || text == null) {
            return new Filter(Expressions.notNull(name), "[\"is_not_null\", " + quote(name) + "]");
        }
        if (kind == 2) {
            List<Object> values = new ArrayList<>();
            StringBuilder json = new StringBuilder("[\"in\", " + quote(name) + ", [");
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                String v = i == 0 ? text : text(pos, t);
                if (v == null) {
                    continue;
                }
                values.add(ValueStrings.fromText(v, t));
                json.append(values.size() == 1 ? "" : ", ").append(quote(v));
            }
            return new Filter(Expressions.in(name, values), json.append("]]").toString());
        }
        String op = OPS[random.nextInt(OPS.length)];
        Object v = ValueStrings.fromText(text, t);
        Expression e =
                switch (op) {
                    case "=" -> Expressions.equal(name, v);
                    case "!=" -> Expressions.notEqual(name, v);
                    case "<" -> Expressions.lessThan(name, v);
                    case "<=" -> Expressions.lessThanOrEqual(name, v);
                    case ">" -> Expressions.greaterThan(name, v);
                    default -> Expressions.greaterThanOrEqual(name, v);
                };
        return new Filter(e, "[" + quote(op) + ", " + quote(name) + ", " + quote(text) + "]");
    }

    /** The canonical text of the column's value in a random written row (null for a null). */
    private String text(int pos, DataType t) {
        return ValueStrings.toText(rows.get(random.nextInt(rows.size()))[pos], t);
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder();
        ConformanceRows.quote(sb, s);
        return sb.toString();
    }
}
