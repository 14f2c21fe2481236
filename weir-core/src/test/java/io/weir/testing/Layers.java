package io.weir.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Weir's layers (docs/code-layout.md): the API packages that users and engines may use, and the
 * implementation packages behind them. Used by the layering tests of weir-core and weir-flink.
 */
public final class Layers {
    /** The API: interfaces, values and entry points. */
    public static final Set<String> API =
            Set.of(
                    "io.weir",
                    "io.weir.data",
                    "io.weir.types",
                    "io.weir.expressions",
                    "io.weir.options",
                    "io.weir.exceptions",
                    "io.weir.io",
                    "io.weir.partition",
                    "io.weir.util");

    /** The implementation, in packages named for their concept. */
    public static final Set<String> IMPLEMENTATION =
            Set.of(
                    "io.weir.base",
                    "io.weir.commit",
                    "io.weir.log",
                    "io.weir.memory",
                    "io.weir.merge",
                    "io.weir.read",
                    "io.weir.scan",
                    "io.weir.schema",
                    "io.weir.service",
                    "io.weir.table",
                    "io.weir.tag",
                    "io.weir.write");

    private static final Pattern REFERENCE =
            Pattern.compile("\\b(io\\.weir(?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]\\w*");

    private Layers() {}

    /** A reference from a source file to a class of another package. */
    public record Reference(String file, String fromPackage, String toPackage) {
        @Override
        public String toString() {
            return file + " (" + fromPackage + ") uses " + toPackage;
        }
    }

    /**
     * Every reference to a {@code io.weir} class of another package in the Java sources under
     * {@code root}: imports, static imports and fully qualified names, Javadoc included.
     */
    public static List<Reference> references(Path root) {
        List<Reference> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                String pkg = packageOf(source);
                Matcher m = REFERENCE.matcher(source.replaceFirst("(?m)^package [\\w.]+;", ""));
                Set<String> seen = new TreeSet<>();
                while (m.find()) {
                    if (!m.group(1).equals(pkg) && seen.add(m.group(1))) {
                        out.add(new Reference(root.relativize(file).toString(), pkg, m.group(1)));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The packages of the Java sources under {@code root}. */
    public static Set<String> packages(Path root) {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                out.add(packageOf(Files.readString(file)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static String packageOf(String source) {
        Matcher m = Pattern.compile("(?m)^package ([\\w.]+);").matcher(source);
        return m.find() ? m.group(1) : "";
    }
}
