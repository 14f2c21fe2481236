package io.weir.options;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

class TableOptionsTest {

    @Test
    void defaultsApplyWhenNothingIsSet() {
        TableOptions options = TableOptions.defaults();
        assertThat(options.bucket()).isEqualTo(4);
        assertThat(options.mergeEngine()).isEqualTo(MergeEngine.DEDUPLICATE);
        assertThat(options.sequenceField()).isNull();
        assertThat(options.logCodec()).isEqualTo(LogCodec.LZ4);
        assertThat(options.writeBufferSize()).isEqualTo(256L << 20);
        assertThat(options.pageSize()).isEqualTo(64 << 10);
        assertThat(options.writeOnly()).isFalse();
        assertThat(options.toMap()).isEmpty();
    }

    @Test
    void valuesAreParsedByType() {
        TableOptions options =
                TableOptions.of(
                        Map.of(
                                "bucket", "16",
                                "log.codec", "zstd",
                                "write-buffer-size", "64 mb",
                                "page-size", "32kb",
                                "write-only", "TRUE",
                                "file.compression", "snappy",
                                "sequence.field", "ts"));
        assertThat(options.bucket()).isEqualTo(16);
        assertThat(options.logCodec()).isEqualTo(LogCodec.ZSTD);
        assertThat(options.writeBufferSize()).isEqualTo(64L << 20);
        assertThat(options.pageSize()).isEqualTo(32 << 10);
        assertThat(options.writeOnly()).isTrue();
        assertThat(options.fileCompression()).isEqualTo(BaseFileCompression.SNAPPY);
        assertThat(options.sequenceField()).isEqualTo("ts");
        assertThat(options.with(Map.of("bucket", "2")).bucket()).isEqualTo(2);
    }

    @Test
    void unknownOptionsAreRejectedListingTheValidOnes() {
        assertThatThrownBy(() -> TableOptions.of(Map.of("buckets", "4")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "Unknown table option 'buckets'. Valid options: bucket, merge-engine,")
                .hasMessageContaining("log.codec");
    }

    @Test
    void invalidValuesNameTheOptionAndWhatIsValid() {
        assertThatThrownBy(() -> TableOptions.of(Map.of("bucket", "four")))
                .hasMessageStartingWith(
                        "Invalid value 'four' for option 'bucket': expected an integer");
        assertThatThrownBy(() -> TableOptions.of(Map.of("bucket", "0")))
                .hasMessage("Invalid value '0' for option 'bucket': must be between 1 and 32768");
        assertThatThrownBy(() -> TableOptions.of(Map.of("log.codec", "gzip")))
                .hasMessageStartingWith(
                        "Invalid value 'gzip' for option 'log.codec': expected one of [none, lz4, zstd]");
        assertThatThrownBy(() -> TableOptions.of(Map.of("page-size", "3000")))
                .hasMessage(
                        "Invalid value '3000' for option 'page-size': must be a power of two between 4"
                                + " kb and 16 mb");
        assertThatThrownBy(() -> TableOptions.of(Map.of("write-only", "yes")))
                .hasMessageStartingWith(
                        "Invalid value 'yes' for option 'write-only': expected true or false");
    }

    /**
     * Every option of every kind, given a value of the wrong shape, fails with one message that
     * names the value, the option and what is valid, and nothing of Java's parsers (no cause, no
     * "No enum constant", no "For input string").
     */
    @Test
    void everyOptionRejectsAValueOfTheWrongShapeInOneClearSentence() {
        List<ConfigOption<?>> all = new ArrayList<>(TableOptions.ALL.values());
        all.addAll(StorageOptions.ALL.values());
        int checked = 0;
        for (ConfigOption<?> option : all) {
            String expectation =
                    switch (option.type().getSimpleName()) {
                        case "Integer" -> "an integer";
                        case "Long" -> "a long integer";
                        case "Boolean" -> "true or false";
                        case "MemorySize" -> "a memory size such as '64 kb' or '256 mb'";
                        case "Duration" -> "a duration such as '30 s', '10 min' or '7 d'";
                        case "String" -> null; // any text parses; checked where it is used
                        default -> "one of " + option.validValues();
                    };
            if (expectation == null) {
                continue;
            }
            String bad = "no-such-value";
            Map<String, String> given = Map.of(option.key(), bad);
            Throwable error =
                    catchThrowable(
                            () -> {
                                if (StorageOptions.ALL.containsKey(option.key())) {
                                    StorageOptions.of(given);
                                } else {
                                    TableOptions.of(given);
                                }
                            });
            assertThat(error)
                    .as(option.key())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "Invalid value '"
                                    + bad
                                    + "' for option '"
                                    + option.key()
                                    + "': expected "
                                    + expectation)
                    .hasNoCause();
            checked++;
        }
        assertThat(checked).isGreaterThan(25);
    }

    @Test
    void memorySizesParseAndPrint() {
        assertThat(MemorySize.parse("256 mb").bytes()).isEqualTo(256L << 20);
        assertThat(MemorySize.parse("1GB").bytes()).isEqualTo(1L << 30);
        assertThat(MemorySize.parse("4096").bytes()).isEqualTo(4096);
        assertThat(MemorySize.parse("64 kib").toString()).isEqualTo("64 kb");
        assertThatThrownBy(() -> MemorySize.parse("lots")).hasMessageContaining("'lots'");
    }

    @Test
    void everyOptionIsDocumented() {
        String doc = TableOptions.describe();
        for (String key : TableOptions.keys()) {
            assertThat(doc).contains("`" + key + "`");
        }
        for (ConfigOption<?> option : TableOptions.ALL.values()) {
            assertThat(option.description()).as(option.key()).isNotBlank();
        }
    }
}
