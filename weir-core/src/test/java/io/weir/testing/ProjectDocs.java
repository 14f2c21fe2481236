package io.weir.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** The project's docs/ files, for tests that check what the docs say against the code. */
public final class ProjectDocs {
    private ProjectDocs() {}

    /** docs/{@code name} of the project, found from the working directory (a module's) upwards. */
    public static Path path(String name) {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path doc = p.resolve("docs").resolve(name);
            if (Files.isRegularFile(doc)) {
                return doc;
            }
        }
        throw new AssertionError(
                "Cannot find docs/" + name + " above " + Path.of("").toAbsolutePath());
    }
}
