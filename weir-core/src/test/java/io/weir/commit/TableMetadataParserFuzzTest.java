package io.weir.commit;

import com.code_intelligence.jazzer.junit.FuzzTest;

/** Fuzzes {@link TableMetadataParser} (Jazzer, see {@link MetadataFuzzing} and docs/testing.md). */
class TableMetadataParserFuzzTest {
    @FuzzTest(maxDuration = "3s")
    void parse(byte[] input) {
        MetadataFuzzing.parse(input, TableMetadataParser::fromJson, TableMetadataParser::toJson);
    }
}
