package io.weir.testing;

import io.weir.util.Json;

/** Edits of metadata documents' text, for tests of the parsers and of damaged files. */
public final class MetadataText {
    private MetadataText() {}

    /**
     * The document without its checksum member, as Weir wrote it before checksums (docs/format.md
     * §6): what tests edit to check the parsers' messages on a document that reads unchecked.
     */
    public static String withoutChecksum(String json) {
        if (!json.startsWith("{\n  \"" + Json.CHECKSUM_FIELD + "\"")) {
            throw new IllegalArgumentException("No checksum member: " + json);
        }
        // Drop the member and its comma: "{" + "\n  \"format-version\" ...".
        return "{" + json.substring(Json.CHECKSUM_COVERED_FROM + 1);
    }
}
