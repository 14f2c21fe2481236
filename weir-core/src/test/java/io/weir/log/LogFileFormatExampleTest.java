package io.weir.log;

import io.weir.data.BinaryRow;
import io.weir.data.BinaryRowWriter;
import io.weir.data.RowKind;
import io.weir.options.LogCodec;
import io.weir.testing.ProjectDocs;
import io.weir.types.DataTypes;
import io.weir.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The worked example of docs/format.md §4.6 is exactly what the writer writes. */
class LogFileFormatExampleTest {
    private static final String BEGIN = "<!-- begin log example";
    private static final String END = "<!-- end log example";

    /** "000024 18 00 00 00 annotation": an offset, bytes, then two or more spaces. */
    private static final Pattern LINE =
            Pattern.compile("^([0-9a-f]{6})  ((?:[0-9a-f]{2} )*[0-9a-f]{2})(?:\\s{2,}.*)?$");

    @TempDir Path dir;

    @Test
    void documentedExampleMatchesTheWriter() throws IOException {
        RowType type = RowType.of("id", DataTypes.INT().notNull(), "name", DataTypes.STRING());
        List<BinaryRow> rows =
                List.of(
                        BinaryRowWriter.toRow(type, RowKind.INSERT, 1, "weir"),
                        BinaryRowWriter.toRow(type, RowKind.DELETE, 2, null));
        String path = dir.resolve("example.wlog").toString();
        LogTestSupport.write(path, LogWriterOptions.of(1, 2, LogCodec.NONE), rows);

        byte[] written = Files.readAllBytes(Path.of(path));
        assertThat(documentedBytes()).isEqualTo(written);
        assertThat(LogTestSupport.readAll(path, 2)).isEqualTo(rows);
    }

    /** The bytes of the example, checking that each line's offset follows the previous line. */
    private static byte[] documentedBytes() throws IOException {
        List<String> lines = Files.readAllLines(ProjectDocs.path("format.md"));
        int begin = indexOfPrefix(lines, BEGIN);
        int end = indexOfPrefix(lines, END);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (String line : lines.subList(begin + 1, end)) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                assertThat(line).as("a line that is not bytes").doesNotMatch("^[0-9a-f]{6} .*");
                continue;
            }
            assertThat(Integer.parseInt(m.group(1), 16)).as(line).isEqualTo(bytes.size());
            for (String hex : m.group(2).split(" ")) {
                bytes.write(Integer.parseInt(hex, 16));
            }
        }
        assertThat(bytes.size()).as("bytes in the example").isPositive();
        return bytes.toByteArray();
    }

    private static int indexOfPrefix(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("docs/format.md has no line starting with " + prefix);
    }
}
