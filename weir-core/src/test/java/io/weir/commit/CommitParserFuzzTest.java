package io.weir.commit;

import com.code_intelligence.jazzer.junit.FuzzTest;

/** Fuzzes {@link CommitParser} (Jazzer, see {@link MetadataFuzzing} and docs/testing.md). */
class CommitParserFuzzTest {
    @FuzzTest(maxDuration = "3s")
    void parse(byte[] input) {
        MetadataFuzzing.parse(input, CommitParser::fromJson, CommitParser::toJson);
    }
}
