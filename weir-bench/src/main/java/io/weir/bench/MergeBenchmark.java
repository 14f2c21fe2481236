package io.weir.bench;

import io.weir.Table;
import io.weir.TableWrite;
import io.weir.Tables;
import io.weir.base.BaseFileReader;
import io.weir.base.BaseFileWriteOptions;
import io.weir.base.BaseFileWriter;
import io.weir.data.BinaryRow;
import io.weir.data.KeyFields;
import io.weir.data.RowReader;
import io.weir.io.LocalFileIO;
import io.weir.log.LogFileReader;
import io.weir.log.LogFileWriter;
import io.weir.log.LogWriterOptions;
import io.weir.merge.MergeFunctions;
import io.weir.options.BaseFileCompression;
import io.weir.options.LogCodec;
import io.weir.read.SortedMergeReader;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Merge-on-read of a base and 4 logs: a base of 100,000 keys ({@code 0, 5, 10, ...}) and 4 logs of
 * 20,000 distinct random keys each (updates and some new keys), 180,000 input records.
 *
 * <ul>
 *   <li>{@code mergeInMemory}: {@link SortedMergeReader} over in-memory sorted rows: the merge
 *       alone (heap, key comparisons, the winner's copy).
 *   <li>{@code mergeFiles}: the same over a Parquet base file (ZSTD) and 4 LZ4 log files on {@link
 *       Scratch} (tmpfs): merge plus Parquet and log decoding.
 *   <li>{@code tableScan}: {@code table.newScan().rows()} of a real table with the same content (4
 *       buckets: 4 file groups, each a compacted base and 4 logs): planning, opening files, merge.
 * </ul>
 *
 * Score: ns per input record.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class MergeBenchmark implements Verifiable {
    static final int BASE_ROWS = 100_000;
    static final int LOGS = 4;
    static final int LOG_ROWS = 20_000;
    static final int INPUT = BASE_ROWS + LOGS * LOG_ROWS;

    @Param({"schema1", "schema2"})
    public BenchSchema schema;

    private Path dir;
    private LocalFileIO io;
    private KeyFields key;
    private RowArena base;
    private final List<RowArena> logs = new ArrayList<>();
    private String basePath;
    private final List<String> logPaths = new ArrayList<>();
    private Table table;
    private long distinctKeys;

    @Setup
    public void setup() throws IOException {
        dir = Scratch.newDirectory("weir-bench-merge");
        io = new LocalFileIO();
        key = schema.key();
        TreeSet<Long> all = new TreeSet<>();
        base = RowArena.of(schema, BASE_ROWS, 11, i -> 5 * i);
        for (int i = 0; i < BASE_ROWS; i++) {
            all.add(base.key(i));
        }
        SplittableRandom random = new SplittableRandom(12);
        for (int l = 0; l < LOGS; l++) {
            TreeSet<Long> keys = new TreeSet<>();
            while (keys.size() < LOG_ROWS) {
                keys.add(random.nextLong(6L * BASE_ROWS));
            }
            long[] sorted = keys.stream().mapToLong(Long::longValue).toArray();
            logs.add(RowArena.of(schema, LOG_ROWS, 13 + l, i -> sorted[(int) i]));
            all.addAll(keys);
        }
        distinctKeys = all.size();

        BinaryRow view = new BinaryRow(schema.arity());
        basePath = dir.resolve("base.parquet").toString();
        BaseFileWriter baseWriter =
                new BaseFileWriter(
                        io.newOutputFile(basePath),
                        schema.schema(),
                        BaseFileWriteOptions.of(BaseFileCompression.ZSTD));
        for (int i = 0; i < BASE_ROWS; i++) {
            baseWriter.write(base.row(i, view));
        }
        baseWriter.close();
        for (int l = 0; l < LOGS; l++) {
            String path = dir.resolve("log-" + l + ".wlog").toString();
            LogFileWriter writer =
                    new LogFileWriter(
                            io.newOutputFile(path),
                            LogWriterOptions.of(0, schema.arity(), LogCodec.LZ4));
            RowArena log = logs.get(l);
            for (int i = 0; i < LOG_ROWS; i++) {
                writer.write(log.row(i, view));
            }
            writer.close();
            logPaths.add(path);
        }

        table =
                Tables.create(
                        dir.resolve("table").toString(),
                        schema.schema(),
                        Map.of("bucket", "4", "log.codec", "LZ4", "file.compression", "ZSTD"));
        writeAndCommit(base);
        table.newCompaction().full().execute();
        for (RowArena log : logs) {
            writeAndCommit(log);
        }
        table.refresh();
    }

    private void writeAndCommit(RowArena rows) {
        BinaryRow view = new BinaryRow(schema.arity());
        try (TableWrite write = table.newWrite().create()) {
            for (int i = 0; i < rows.size(); i++) {
                write.write(rows.row(i, view));
            }
            table.newAppend().addFiles(write.prepareCommit()).commit();
        }
    }

    @Benchmark
    @OperationsPerInvocation(INPUT)
    public long mergeInMemory() {
        List<RowReader> sources = new ArrayList<>();
        sources.add(new ArenaReader(base));
        for (RowArena log : logs) {
            sources.add(new ArenaReader(log));
        }
        return drain(
                new SortedMergeReader(
                        sources,
                        sources.stream().map(Object::toString).toList(),
                        key,
                        MergeFunctions.deduplicate(null, schema.arity(), false),
                        false));
    }

    @Benchmark
    @OperationsPerInvocation(INPUT)
    public long mergeFiles() throws IOException {
        List<RowReader> sources = new ArrayList<>();
        BaseFileReader baseReader =
                new BaseFileReader(io.newInputFile(basePath), schema.schema().rowType());
        sources.add(
                new RowReader() {
                    @Override
                    public boolean next() {
                        return baseReader.next();
                    }

                    @Override
                    public BinaryRow row() {
                        return baseReader.row();
                    }

                    @Override
                    public void close() {
                        baseReader.close();
                    }
                });
        for (String path : logPaths) {
            sources.add(new LogReader(LogFileReader.open(io.newInputFile(path), schema.arity())));
        }
        return drain(
                new SortedMergeReader(
                        sources,
                        sources.stream().map(Object::toString).toList(),
                        key,
                        MergeFunctions.deduplicate(null, schema.arity(), false),
                        false));
    }

    @Benchmark
    @OperationsPerInvocation(INPUT)
    public long tableScan() {
        return drain(table.newScan().rows());
    }

    private static long drain(RowReader reader) {
        long n = 0;
        try (reader) {
            while (reader.next()) {
                n += reader.row().sizeInBytes() > 0 ? 1 : 0;
            }
        }
        return n;
    }

    @TearDown
    public void tearDown() {
        Scratch.delete(dir);
    }

    @Override
    public void verify(String method, long result) {
        Verifiable.check(
                result == distinctKeys,
                "%s returned %s rows, expected the %s distinct keys",
                method,
                result,
                distinctKeys);
    }

    /** Rows of an arena, in order. */
    private static final class ArenaReader implements RowReader {
        private final RowArena rows;
        private final BinaryRow view;
        private int next;

        ArenaReader(RowArena rows) {
            this.rows = rows;
            this.view = new BinaryRow(rows.schema().arity());
        }

        @Override
        public boolean next() {
            if (next == rows.size()) {
                return false;
            }
            rows.row(next++, view);
            return true;
        }

        @Override
        public BinaryRow row() {
            return view;
        }

        @Override
        public void close() {}
    }

    private static final class LogReader implements RowReader {
        private final LogFileReader reader;

        LogReader(LogFileReader reader) {
            this.reader = reader;
        }

        @Override
        public boolean next() {
            try {
                return reader.next();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public BinaryRow row() {
            return reader.row();
        }

        @Override
        public void close() {
            try {
                reader.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
