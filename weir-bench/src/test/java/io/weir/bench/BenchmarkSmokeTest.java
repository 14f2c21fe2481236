package io.weir.bench;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every benchmark method once, outside JMH, for every combination of its parameters: the setup
 * and teardown methods in JMH's order, then {@link Verifiable#verify} on the result. A cheap check
 * that each benchmark still does what it says; the JMH runs themselves are manual
 * (docs/performance.md).
 */
class BenchmarkSmokeTest {
    static final List<Class<? extends Verifiable>> BENCHMARKS =
            List.of(
                    AppendBenchmark.class,
                    BucketBenchmark.class,
                    TableWriteBenchmark.class,
                    PartitionedWriteBenchmark.class,
                    SortBenchmark.class,
                    FlushBenchmark.class,
                    LogReadBenchmark.class,
                    MergeBenchmark.class,
                    BaseFileBenchmark.class,
                    BulkWriteBenchmark.class,
                    RowBuildBenchmark.class,
                    TableStateBenchmark.class);

    @TestFactory
    Stream<DynamicTest> everyBenchmarkRunsOnceAndChecksOut() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Class<? extends Verifiable> type : BENCHMARKS) {
            for (Map<Field, String> params : combinations(type)) {
                String name = type.getSimpleName() + " " + describe(params);
                tests.add(DynamicTest.dynamicTest(name, () -> runOnce(type, params)));
            }
        }
        return tests.stream();
    }

    @org.junit.jupiter.api.Test
    void everyBenchmarkClassIsListed() throws Exception {
        // The JMH annotation processor lists every benchmark class it generated code for.
        try (var in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
            assertThat(in).as("JMH's generated benchmark list").isNotNull();
            String list = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            for (Class<?> type : BENCHMARKS) {
                assertThat(list).contains(type.getName());
            }
            long listed =
                    Arrays.stream(list.split("\n"))
                            .map(line -> line.split(" ")[3])
                            .filter(s -> s.startsWith("io.weir."))
                            .distinct()
                            .count();
            assertThat(listed).as("classes in META-INF/BenchmarkList").isEqualTo(BENCHMARKS.size());
        }
    }

    /** One setup, then each benchmark method once, with JMH's per-invocation setup around it. */
    private static void runOnce(Class<? extends Verifiable> type, Map<Field, String> params)
            throws Exception {
        Verifiable instance = type.getDeclaredConstructor().newInstance();
        for (Map.Entry<Field, String> p : params.entrySet()) {
            Field f = p.getKey();
            f.set(instance, convert(f.getType(), p.getValue()));
        }
        try {
            invoke(instance, Level.Trial, Setup.class);
            for (Method benchmark : annotated(type, Benchmark.class)) {
                invoke(instance, Level.Iteration, Setup.class);
                invoke(instance, Level.Invocation, Setup.class);
                Object result = call(benchmark, instance);
                assertThat(result).as(benchmark.getName()).isInstanceOf(Long.class);
                instance.verify(benchmark.getName(), (Long) result);
                invoke(instance, Level.Invocation, TearDown.class);
                invoke(instance, Level.Iteration, TearDown.class);
            }
        } finally {
            invoke(instance, Level.Trial, TearDown.class);
        }
    }

    private static void invoke(Object instance, Level level, Class<?> annotation) throws Exception {
        for (Method m : instance.getClass().getMethods()) {
            Level actual = null;
            if (annotation == Setup.class && m.isAnnotationPresent(Setup.class)) {
                actual = m.getAnnotation(Setup.class).value();
            } else if (annotation == TearDown.class && m.isAnnotationPresent(TearDown.class)) {
                actual = m.getAnnotation(TearDown.class).value();
            }
            if (actual == level) {
                call(m, instance);
            }
        }
    }

    private static Object call(Method m, Object instance) throws Exception {
        try {
            return m.invoke(instance);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    private static List<Method> annotated(Class<?> type, Class<Benchmark> annotation) {
        return Arrays.stream(type.getMethods())
                .filter(m -> m.isAnnotationPresent(annotation))
                .sorted(Comparator.comparing(Method::getName))
                .toList();
    }

    /** Every combination of the values of the class's {@code @Param} fields. */
    private static List<Map<Field, String>> combinations(Class<?> type) {
        List<Map<Field, String>> result = new ArrayList<>();
        result.add(new LinkedHashMap<>());
        for (Field f : type.getFields()) {
            Param param = f.getAnnotation(Param.class);
            if (param == null) {
                continue;
            }
            List<Map<Field, String>> next = new ArrayList<>();
            for (Map<Field, String> partial : result) {
                for (String value : param.value()) {
                    Map<Field, String> extended = new LinkedHashMap<>(partial);
                    extended.put(f, value);
                    next.add(extended);
                }
            }
            result = next;
        }
        return result;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object convert(Class<?> type, String value) {
        if (type == String.class) {
            return value;
        } else if (type.isEnum()) {
            return Enum.valueOf((Class<? extends Enum>) type, value);
        } else if (type == int.class) {
            return Integer.parseInt(value);
        }
        throw new IllegalArgumentException("Unsupported @Param type " + type);
    }

    private static String describe(Map<Field, String> params) {
        StringBuilder s = new StringBuilder();
        params.forEach((f, v) -> s.append(f.getName()).append('=').append(v).append(' '));
        return s.toString().trim();
    }
}
