package io.weir.flink;

import io.weir.testing.Layers;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The connector builds on weir-core's API only (docs/code-layout.md). */
class LayeringTest {

    @Test
    void connectorUsesOnlyTheApiOfWeirCore() {
        assertThat(Layers.references(Path.of("src/main/java")))
                .filteredOn(r -> !r.toPackage().startsWith("io.weir.flink"))
                .allMatch(r -> Layers.API.contains(r.toPackage()), "uses only API packages");
    }
}
