package io.weir;

import io.weir.util.Json;
import io.weir.util.JsonFields;

import java.util.ArrayList;
import java.util.List;

/**
 * JSON codec of a list of {@link DataFile}s outside commit files: what engines hand between
 * processes (Flink committables, source splits). Same field encoding as in commits.
 */
public final class DataFilesParser {
    public static final String FILES = "files";

    private DataFilesParser() {}

    public static String toJson(List<DataFile> files) {
        return Json.document(
                gen -> {
                    gen.writeArrayFieldStart(FILES);
                    for (DataFile f : files) {
                        DataFileParser.write(gen, f);
                    }
                    gen.writeEndArray();
                });
    }

    /**
     * @param source what the text is (named in errors)
     * @throws io.weir.exceptions.CorruptFileException if the text is malformed
     */
    public static List<DataFile> fromJson(String source, String json) {
        List<DataFile> files = new ArrayList<>();
        for (JsonFields f : Json.parse(source, json).objectList(FILES)) {
            files.add(DataFileParser.read(f));
        }
        return files;
    }
}
