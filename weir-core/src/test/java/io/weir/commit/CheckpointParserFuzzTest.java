package io.weir.commit;

import com.code_intelligence.jazzer.junit.FuzzTest;

/** Fuzzes {@link CheckpointParser} (Jazzer, see {@link MetadataFuzzing} and docs/testing.md). */
class CheckpointParserFuzzTest {
    @FuzzTest(maxDuration = "3s")
    void parse(byte[] input) {
        MetadataFuzzing.parse(input, CheckpointParser::fromJson, CheckpointParser::toJson);
    }
}
