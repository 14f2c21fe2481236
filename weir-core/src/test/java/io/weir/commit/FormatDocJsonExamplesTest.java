package io.weir.commit;

import io.weir.testing.ProjectDocs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every JSON example of docs/format.md parses with the metadata parser of its kind, and writing the
 * parsed value again gives the example's exact text: the examples are what Weir writes and reads.
 */
class FormatDocJsonExamplesTest {
    private static final Pattern JSON_BLOCK = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyJsonExampleIsWhatTheParsersReadAndWrite() throws IOException {
        String doc = Files.readString(ProjectDocs.path("format.md"));
        List<String> examples = new ArrayList<>();
        Matcher m = JSON_BLOCK.matcher(doc);
        while (m.find()) {
            examples.add(m.group(1).strip());
        }
        // Schema, three commits, checkpoint, expiry marker, reader lease, writer lease, tag.
        assertThat(examples).hasSize(9);
        for (String json : examples) {
            assertThat(roundTrip(json + "\n")).as("example:%n%s", json).isEqualTo(json);
        }
    }

    private static String roundTrip(String json) {
        String file = "docs/format.md";
        if (json.contains("\"earliest-retained-commit\"")) {
            return ExpiryMarkerParser.toJson(
                            ExpiryMarkerParser.fromJson(file, json), timestampOf(json))
                    .strip();
        }
        if (json.contains("\"tag-name\"")) {
            String name = json.replaceAll("(?s).*\"tag-name\" : \"([^\"]+)\".*", "$1");
            TagFiles.Entry tag = TagFiles.parse("_weir/tags/" + name + ".json", json);
            return TagFiles.toJson(tag.tag(), tag.state()).strip();
        }
        if (json.contains("\"oldest-file-millis\"")) {
            return WriterLeaseParser.toJson(WriterLeaseParser.fromJson(file, json)).strip();
        }
        if (json.contains("\"consumer-id\"")) {
            return LeaseParser.toJson(LeaseParser.fromJson(file, json)).strip();
        }
        if (json.contains("\"schema\"")) {
            return TableMetadataParser.toJson(TableMetadataParser.fromJson(file, json)).strip();
        }
        if (json.contains("\"kind\" : \"APPEND\"")
                || json.contains("\"kind\" : \"COMPACT\"")
                || json.contains("\"kind\" : \"OVERWRITE\"")) {
            return CommitParser.toJson(CommitParser.fromJson(file, json)).strip();
        }
        return CheckpointParser.toJson(CheckpointParser.fromJson(file, json)).strip();
    }

    private static long timestampOf(String json) {
        Matcher m = Pattern.compile("\"timestamp-millis\" : (\\d+)").matcher(json);
        assertThat(m.find()).isTrue();
        return Long.parseLong(m.group(1));
    }
}
