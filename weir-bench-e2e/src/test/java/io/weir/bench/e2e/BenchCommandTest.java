package io.weir.bench.e2e;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad values are usage errors with their exact message, found before any child JVM starts. */
class BenchCommandTest {
    @TempDir Path work;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--sink | iceberg | Unknown sink 'iceberg': expected weir, paimon, hudi, blackhole,"
                        + " shuffle or blackhole117",
                "--schema | 5 | Unknown schema '5': expected 1, 2, 3, 4 or schema1 ... schema4",
                "--source | kafka | Unknown source 'kafka': expected gen or datagen",
                "--compaction | sideways | Unknown compaction mode 'sideways': expected off, on or"
                        + " long",
            })
    void badValuesAreUsageErrors(String option, String value, String message) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("--sink", "weir");
        options.put("--schema", "1");
        options.put("--source", "gen");
        options.put("--work-dir", work.toString());
        options.put(option, value);
        List<String> args = new ArrayList<>();
        options.forEach(
                (name, v) -> {
                    args.add(name);
                    args.add(v);
                });
        StringWriter err = new StringWriter();
        CommandLine command = BenchCommand.commandLine();
        command.setErr(new PrintWriter(err, true));

        int exitCode = command.execute(args.toArray(new String[0]));

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString())
                .isEqualTo(
                        "weir bench: "
                                + message
                                + System.lineSeparator()
                                + "Try 'weir bench --help'."
                                + System.lineSeparator());
    }
}
