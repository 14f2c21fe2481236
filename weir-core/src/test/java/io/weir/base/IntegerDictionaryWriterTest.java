package io.weir.base;

import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IntegerDictionaryWriter} against parquet-java's dictionary writers, each behind the same
 * fallback to plain values as in a base file: the same data pages, encodings and dictionary pages,
 * byte for byte, over several row groups of several pages, whether the dictionary stays small,
 * outgrows its byte limit mid-chunk, or does not pay on the first page.
 */
class IntegerDictionaryWriterTest {
    private static final ByteBufferAllocator HEAP = HeapByteBufferAllocator.getInstance();

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void writesParquetJavasPagesForFewValues(boolean longValues) throws IOException {
        Random random = new Random(7);
        long[] few = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, 42, 1L << 32, -(1L << 40)};
        assertThat(assertSamePages(longValues, 1 << 20, () -> few[random.nextInt(few.length)]))
                .containsOnly(Encoding.PLAIN_DICTIONARY);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void writesParquetJavasPagesForMillisecondTimestamps(boolean longValues) throws IOException {
        // Ten thousand distinct values close together, in random order: the table grows through
        // several rehashes, and neighbours must not collide into long probe runs.
        Random random = new Random(11);
        long base = 1_764_288_000_000L;
        assertThat(assertSamePages(longValues, 1 << 20, () -> base + random.nextInt(10_000)))
                .containsOnly(Encoding.PLAIN_DICTIONARY);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void fallsBackWhereParquetJavaDoes(boolean longValues) throws IOException {
        // A limit the dictionary outgrows within each row group (its first page draws from 100
        // values, then every value is new), and a first page on which a dictionary of mostly
        // distinct values does not pay.
        Random random = new Random(13);
        long[] written = {0};
        LongSupplier fewThenNew =
                () -> written[0]++ % 48_004 < 20_000 ? random.nextInt(100) : written[0];
        assertThat(assertSamePages(longValues, 4 << 10, fewThenNew))
                .contains(Encoding.PLAIN_DICTIONARY, Encoding.PLAIN);
        assertThat(assertSamePages(longValues, 1 << 20, random::nextLong))
                .containsOnly(Encoding.PLAIN);
    }

    /** Returns the encodings of the pages written. */
    private static List<Encoding> assertSamePages(
            boolean longValues, int maxDictionaryBytes, LongSupplier values) throws IOException {
        int[] pageSizes = {20_000, 1, 5_000, 3, 20_000};
        List<Encoding> all = new ArrayList<>();
        for (int rowGroup = 0; rowGroup < 3; rowGroup++) {
            // New writers for each row group, as FlatColumnStore makes them: parquet-java's
            // dictionary writer keeps the ids of the page it fell back in, so it cannot be reused
            // for another chunk after a fallback.
            ValuesWriter ours =
                    FallbackValuesWriter.of(
                            new IntegerDictionaryWriter(longValues, maxDictionaryBytes, HEAP),
                            new PlainValuesWriter(1024, 1 << 20, HEAP));
            DictionaryValuesWriter theirDictionary =
                    longValues
                            ? new DictionaryValuesWriter.PlainLongDictionaryValuesWriter(
                                    maxDictionaryBytes,
                                    Encoding.PLAIN_DICTIONARY,
                                    Encoding.PLAIN_DICTIONARY,
                                    HEAP)
                            : new DictionaryValuesWriter.PlainIntegerDictionaryValuesWriter(
                                    maxDictionaryBytes,
                                    Encoding.PLAIN_DICTIONARY,
                                    Encoding.PLAIN_DICTIONARY,
                                    HEAP);
            ValuesWriter theirs =
                    FallbackValuesWriter.of(
                            theirDictionary, new PlainValuesWriter(1024, 1 << 20, HEAP));
            List<String> encodings = new ArrayList<>();
            for (int page = 0; page < pageSizes.length; page++) {
                for (int i = 0; i < pageSizes[page]; i++) {
                    long value = values.getAsLong();
                    if (longValues) {
                        ours.writeLong(value);
                        theirs.writeLong(value);
                    } else {
                        ours.writeInteger((int) value);
                        theirs.writeInteger((int) value);
                    }
                }
                String where = "row group " + rowGroup + ", page " + page;
                assertThat(ours.getBufferedSize()).as(where).isEqualTo(theirs.getBufferedSize());
                assertThat(ours.getBytes().toByteArray())
                        .as(where)
                        .isEqualTo(theirs.getBytes().toByteArray());
                assertThat(ours.getEncoding()).as(where).isEqualTo(theirs.getEncoding());
                encodings.add(ours.getEncoding().name());
                all.add(ours.getEncoding());
                ours.reset();
                theirs.reset();
            }
            DictionaryPage ourPage = ours.toDictPageAndClose();
            DictionaryPage theirPage = theirs.toDictPageAndClose();
            String where = "row group " + rowGroup + " " + encodings;
            if (theirPage == null) {
                assertThat(ourPage).as(where).isNull();
            } else {
                assertThat(ourPage).as(where).isNotNull();
                assertThat(ourPage.getDictionarySize()).isEqualTo(theirPage.getDictionarySize());
                assertThat(ourPage.getEncoding()).isEqualTo(theirPage.getEncoding());
                assertThat(bytes(ourPage)).as(where).isEqualTo(bytes(theirPage));
            }
            ours.close();
            theirs.close();
        }
        return all;
    }

    private static byte[] bytes(DictionaryPage page) throws IOException {
        return page.getBytes().toByteArray();
    }
}
