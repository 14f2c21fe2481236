package io.weir.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.provider.ArgumentsSource;
import org.junit.jupiter.params.support.AnnotationConsumer;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The seeds of a random model test: these in every build, and with {@code -Dweir.soak=true} {@code
 * weir.soak.seeds} (default 200) more, {@code 1000 × first + 1} onwards, so that the soak runs of
 * two test methods draw different seeds (docs/testing.md, "Model tests").
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ArgumentsSource(ModelSeeds.Provider.class)
public @interface ModelSeeds {
    int[] value();

    /** Supplies the seeds of a {@code @ModelSeeds} test. */
    final class Provider implements ArgumentsProvider, AnnotationConsumer<ModelSeeds> {
        private int[] seeds;

        /** Whether a seed is one a test names (below 1,000), not one a soak drew. */
        public static boolean named(int seed) {
            return seed < 1000;
        }

        @Override
        public void accept(ModelSeeds annotation) {
            seeds = annotation.value();
        }

        @Override
        public Stream<? extends Arguments> provideArguments(ExtensionContext context) {
            IntStream always = IntStream.of(seeds);
            if (!Boolean.getBoolean("weir.soak")) {
                return always.mapToObj(Arguments::of);
            }
            int more = Integer.getInteger("weir.soak.seeds", 200);
            int first = 1000 * seeds[0] + 1;
            return IntStream.concat(always, IntStream.range(first, first + more))
                    .mapToObj(Arguments::of);
        }
    }
}
