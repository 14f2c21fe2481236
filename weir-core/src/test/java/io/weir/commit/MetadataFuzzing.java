package io.weir.commit;

import io.weir.exceptions.CorruptFileException;
import io.weir.testing.MetadataText;
import io.weir.testing.TestDataFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness of the metadata parsers' fuzz targets ({@code *FuzzTest} in this package): bytes are
 * decoded as {@link MetadataFiles} decodes a file, then parsed. A parse either fails with a {@link
 * CorruptFileException} naming the file, or gives a value that writes back to JSON which parses to
 * an equal value: a parser that accepts what its writer cannot write, or reads back differently, is
 * a finding, as is any other exception.
 */
final class MetadataFuzzing {
    static final String PATH = "fuzzed.json";

    private MetadataFuzzing() {}

    static <T> void parse(
            byte[] input, BiFunction<String, String, T> parser, Function<T, String> writer) {
        String json = new String(input, StandardCharsets.UTF_8);
        T value;
        try {
            value = parser.apply(PATH, json);
        } catch (CorruptFileException e) {
            assertThat(e.path()).isEqualTo(PATH);
            assertThat(e.getMessage()).startsWith("Corrupt file " + PATH);
            return;
        }
        String written = writer.apply(value);
        assertThat(parser.apply(PATH, written))
                .as("%s written back as %s", json, written)
                .isEqualTo(value);
    }

    /**
     * Writes the seed corpus of the three targets: the metadata files of a small table with
     * checkpoints, as committed, but without their checksums. Run from weir-core with the test
     * class path: {@code java io.weir.commit.MetadataFuzzing src/test/resources/io/weir/commit}.
     */
    public static void main(String[] args) throws IOException {
        Path resources = Path.of(args[0]);
        Path tmp = Files.createTempDirectory("seeds");
        String location = tmp.resolve("table").toString();
        FileCommitLog log =
                FileCommitLog.create(
                        new io.weir.io.LocalFileIO(),
                        location,
                        TestDataFiles.metadata(Map.of("metadata.checkpoint-interval", "2")));
        for (int i = 0; i < 4; i++) {
            log.commit(
                    CommitRequest.append(
                            List.of(TestDataFiles.log("d", i), TestDataFiles.base("e", i, i))));
        }
        Path meta = tmp.resolve("table/_weir");
        copy(meta.resolve("commits"), resources.resolve("CommitParserFuzzTestInputs/parse"));
        copy(
                meta.resolve("checkpoints"),
                resources.resolve("CheckpointParserFuzzTestInputs/parse"));
        copy(meta.resolve("schemas"), resources.resolve("TableMetadataParserFuzzTestInputs/parse"));
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                // Without the checksum: a mutation of a checksummed file fails at the checksum
                // and never reaches the parser (seed-checksummed.json covers the checksum).
                Files.writeString(
                        to.resolve("seed-" + f.getFileName()),
                        MetadataText.withoutChecksum(Files.readString(f)));
            }
        }
    }
}
