package io.weir.flink.metrics;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real Flink {@link MetricReporter}, registered in a MiniCluster's configuration ({@link
 * #configure}): Flink hands it every metric its groups register, with the group's variables, and
 * tells it when a metric goes away (a task ended). It keeps each metric's value at that moment, so
 * a test reads the figures of a finished job as a reporter last saw them, and when it read them.
 */
public final class CollectingReporter implements MetricReporter {
    /** The reporter's name in the configuration. */
    public static final String NAME = "collecting";

    private static final List<Seen> SEEN = new CopyOnWriteArrayList<>();

    /**
     * One metric as registered, and its value when it was removed (or null while it lives).
     *
     * @param name the metric's name in its group ({@code lastCommitId})
     * @param scope the group's scope below the operator, joined by dots ({@code weir}), or ""
     * @param variables the group's variables ({@code <subtask_index>}, {@code <operator_name>},
     *     ...)
     */
    public record Seen(
            String name,
            String scope,
            Map<String, String> variables,
            Metric metric,
            Object[] last) {

        /** The subtask index, or -1 for a metric outside a task (the job manager's). */
        public int subtask() {
            String index = variables.get("<subtask_index>");
            return index == null ? -1 : Integer.parseInt(index);
        }

        public String operator() {
            return variables.getOrDefault("<operator_name>", "");
        }

        /** The value when removed, or now; and {@code [1]} the time it was read (epoch ms). */
        public Object value() {
            return last[0] != null ? last[0] : read(metric);
        }

        /** When {@link #value()} was read: at removal, or now. */
        public long readAtMillis() {
            return last[0] != null ? (Long) last[1] : System.currentTimeMillis();
        }

        public long longValue() {
            return ((Number) value()).longValue();
        }
    }

    /** Registers this reporter in {@code conf} (a MiniCluster's). */
    public static Configuration configure(Configuration conf) {
        conf.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
        return conf;
    }

    /** Forgets what earlier tests saw. */
    public static void clear() {
        SEEN.clear();
    }

    /** Every metric seen with this name, in the order of registration. */
    public static List<Seen> named(String name) {
        List<Seen> found = new ArrayList<>();
        for (Seen s : SEEN) {
            if (s.name().equals(name)) {
                found.add(s);
            }
        }
        return found;
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        SEEN.add(
                new Seen(
                        metricName,
                        scopeBelowOperator(group),
                        Map.copyOf(group.getAllVariables()),
                        metric,
                        new Object[2]));
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        for (Seen s : SEEN) {
            if (s.metric() == metric && s.last()[0] == null) {
                Object value = read(metric);
                s.last()[1] = System.currentTimeMillis();
                s.last()[0] = value == null ? "null" : value;
            }
        }
    }

    private static Object read(Metric metric) {
        if (metric instanceof Gauge<?> gauge) {
            return gauge.getValue();
        }
        if (metric instanceof Counter counter) {
            return counter.getCount();
        }
        return metric.toString();
    }

    /** The user scope components after the operator's, e.g. {@code weir}. */
    private static String scopeBelowOperator(MetricGroup group) {
        String[] components = group.getScopeComponents();
        String operator = group.getAllVariables().get("<operator_name>");
        int from = 0;
        for (int i = 0; i < components.length; i++) {
            if (operator != null && components[i].equals(operator)) {
                from = i + 2; // the operator's name, then its subtask index
            }
        }
        return from == 0 || from > components.length
                ? ""
                : String.join(
                        ".", java.util.Arrays.copyOfRange(components, from, components.length));
    }

    /** How Flink creates the reporter: {@code metrics.reporter.<name>.factory.class}. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new CollectingReporter();
        }
    }
}
