package io.weir;

import io.weir.exceptions.CorruptFileException;
import io.weir.testing.MetadataText;
import io.weir.testing.TestDataFiles;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataFilesParserTest {

    @Test
    void filesRoundTrip() {
        List<DataFile> files =
                List.of(TestDataFiles.log("2024-01-01", 3), TestDataFiles.base("2024-01-02", 0, 7));
        assertThat(DataFilesParser.fromJson("test", DataFilesParser.toJson(files)))
                .isEqualTo(files);
        assertThat(DataFilesParser.fromJson("test", DataFilesParser.toJson(List.of()))).isEmpty();
    }

    @Test
    void malformedTextNamesTheSource() {
        assertThatThrownBy(
                        () ->
                                DataFilesParser.fromJson(
                                        "committable of checkpoint 4", "{\"files\": ["))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageStartingWith("Corrupt file committable of checkpoint 4");
    }

    @Test
    void totalBucketsIsWrittenOnlyWhenSetAndMustBeACount() {
        DataFile plain = TestDataFiles.base("2024-01-02", 0, 7);
        DataFile rescaled = plain.withTotalBuckets(16, 4);
        assertThat(plain.withTotalBuckets(4, 4)).isSameAs(plain);
        assertThat(DataFilesParser.toJson(List.of(plain))).doesNotContain("total-buckets");
        String json = DataFilesParser.toJson(List.of(rescaled));
        assertThat(json).contains("\"total-buckets\" : 16");
        assertThat(DataFilesParser.fromJson("test", json)).containsExactly(rescaled);
        assertThat(rescaled.withTotalBuckets(4, 4).totalBuckets()).isZero();
        for (String bad : new String[] {"0", "32769", "\"8\""}) {
            assertThatThrownBy(
                            () ->
                                    DataFilesParser.fromJson(
                                            "test",
                                            MetadataText.withoutChecksum(json).replace("16", bad)))
                    .as(bad)
                    .isInstanceOf(CorruptFileException.class)
                    .hasMessageContaining("total-buckets");
        }
    }
}
