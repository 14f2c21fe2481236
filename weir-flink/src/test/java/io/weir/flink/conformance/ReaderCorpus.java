package io.weir.flink.conformance;

import io.weir.Schema;
import io.weir.types.DataTypes;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conformance corpus of the native readers (weir-rs, docs/readers.md), as the {@code
 * ReaderCorpus*Test} classes write it: tables covering every type, keyed and append-only tables,
 * identity and time partitions, deletes, the sequence field, logs only and logs plus bases,
 * compaction, overwrite and expiry, the merge engines ({@link MergeEngineCorpus}), schema evolution
 * ({@link SchemaEvolutionCorpus}), rescaling, incremental compaction and FLOAT/DOUBLE texts; and,
 * next to each table, what Weir's Flink source returns for every retained snapshot and for
 * incremental ranges, unfiltered and with random filters. The Rust and Python tests compare their
 * output with these files exactly.
 *
 * <p>The corpus goes to the directory of the system property {@code weir.reader.corpus}, by default
 * {@code target/reader-corpus} of this module; {@code weir-rs/ci.sh} reads it from there. The first
 * corpus test of a JVM empties it, so that after the module's tests (one JVM, surefire's default)
 * it holds exactly the tables these tests write: run them together, {@code
 * -Dtest='ReaderCorpus*Test'}.
 */
final class ReaderCorpus {
    private static boolean emptied;

    private ReaderCorpus() {}

    /** Writes some tables of the corpus. */
    interface Writer {
        void write(Path root) throws Exception;
    }

    static MiniClusterExtension cluster() {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(2)
                        .build());
    }

    /**
     * Writes {@code tables} tables of the corpus with {@code writer}, and checks that each has a
     * directory of its own.
     */
    static void write(int tables, Writer writer) throws Exception {
        Path root = root();
        Set<Path> before = entries(root);
        writer.write(root);
        assertThat(entries(root)).containsAll(before).hasSize(before.size() + tables);
    }

    private static synchronized Path root() throws IOException {
        Path root =
                Path.of(System.getProperty("weir.reader.corpus", "target/reader-corpus"))
                        .toAbsolutePath();
        if (!emptied) {
            deleteRecursively(root);
            Files.createDirectories(root);
            emptied = true;
        }
        return root;
    }

    private static Set<Path> entries(Path root) throws IOException {
        try (Stream<Path> entries = Files.list(root)) {
            return entries.collect(Collectors.toSet());
        }
    }

    /** Keyed with a DOUBLE sequence field; nulls, NaN and -0.0 among its values. */
    static Schema keyedWithSequenceField() {
        return Schema.builder()
                .column("k", DataTypes.BIGINT().notNull())
                .column("ver", DataTypes.DOUBLE())
                .column("payload", DataTypes.STRING())
                .primaryKey("k")
                .build();
    }

    /**
     * DOUBLE and FLOAT values whose text (docs/format.md §6.9, the shortest decimal) is often not
     * JDK 17's Double.toString: powers of two, values near powers of ten, subnormals, random bit
     * patterns; otherwise the corpus's usual values.
     */
    static Double hardDouble(Random r, io.weir.types.DataType type) {
        return switch (r.nextInt(5)) {
            case 4 -> null;
            case 0 -> HARD_DOUBLES[r.nextInt(HARD_DOUBLES.length)];
            case 1 ->
                    type.root() == io.weir.types.TypeRoot.FLOAT
                            ? Float.intBitsToFloat(r.nextInt())
                            : Double.longBitsToDouble(r.nextLong());
            default -> ((Number) CorpusValues.random(type.notNull(), r)).doubleValue();
        };
    }

    /** Doubles whose JDK 17 text has more digits than the shortest, and layout edges. */
    private static final double[] HARD_DOUBLES = {
        1.0E23,
        2.0E23,
        Double.MIN_VALUE,
        2.0E-3,
        9.999999999999998E-4,
        1.0E7,
        9999999.999999998,
        Double.longBitsToDouble(0x3900000000000000L), // 2^-111, a FLOAT
        Double.longBitsToDouble(0xbd30000000000000L), // -2^-44, a FLOAT
        Double.longBitsToDouble(0x43d0000000000000L), // 2^62, a FLOAT
        Double.longBitsToDouble(0x8000000020000000L), // a subnormal
        Double.longBitsToDouble(0x0360000000000000L),
        Double.longBitsToDouble(0x408216a120000000L), // a FLOAT: 578.82867431640625
        Double.longBitsToDouble(0x43bddf3b60000000L)
    };

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
