package io.weir;

import io.weir.testing.Layers;
import io.weir.testing.Layers.Reference;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The dependency rules between weir-core's packages (docs/code-layout.md). */
class LayeringTest {
    private static final Path MAIN = Path.of("src/main/java");

    /** The one entry point that builds the implementation: it must name it. */
    private static final String ENTRY_POINT = "io/weir/Tables.java";

    @Test
    void everyPackageIsApiOrImplementation() {
        assertThat(Layers.packages(MAIN))
                .allMatch(p -> Layers.API.contains(p) || Layers.IMPLEMENTATION.contains(p));
    }

    @Test
    void apiUsesNoImplementationPackage() {
        List<Reference> violations =
                Layers.references(MAIN).stream()
                        .filter(r -> Layers.API.contains(r.fromPackage()))
                        .filter(r -> Layers.IMPLEMENTATION.contains(r.toPackage()))
                        .filter(r -> !r.file().equals(ENTRY_POINT))
                        .toList();
        assertThat(violations).isEmpty();
    }

    @Test
    void writersDoNotUseReaders() {
        List<Reference> violations =
                Layers.references(MAIN).stream()
                        .filter(r -> r.fromPackage().equals("io.weir.write"))
                        .filter(r -> r.toPackage().equals("io.weir.read"))
                        .toList();
        assertThat(violations).isEmpty();
    }
}
