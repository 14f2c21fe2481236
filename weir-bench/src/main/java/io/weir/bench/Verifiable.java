package io.weir.bench;

/**
 * A benchmark whose results can be checked: {@code BenchmarkSmokeTest} runs every benchmark method
 * once, in-process and outside JMH, and passes its result here, so that a benchmark that stops
 * doing what it claims (e.g. a flush that writes fewer records) fails the default build cheaply.
 */
public interface Verifiable {
    /**
     * Checks the value returned by benchmark method {@code method}; throws {@link
     * IllegalStateException} if it is wrong.
     */
    void verify(String method, long result);

    static void check(boolean ok, String format, Object... args) {
        if (!ok) {
            throw new IllegalStateException(String.format(format, args));
        }
    }
}
