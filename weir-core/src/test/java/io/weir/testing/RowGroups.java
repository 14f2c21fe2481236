package io.weir.testing;

import io.weir.DataFile;
import io.weir.FileKind;
import io.weir.Table;

import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.LocalInputFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The Parquet row groups of a local table's base files, read from their footers. */
public final class RowGroups {
    private RowGroups() {}

    /** The row groups of every base file of the table's current snapshot, file after file. */
    public static List<BlockMetaData> ofBaseFiles(Table table) {
        List<BlockMetaData> rowGroups = new ArrayList<>();
        for (DataFile f : table.currentSnapshot().files()) {
            if (f.kind() != FileKind.BASE) {
                continue;
            }
            Path file = Path.of(table.location(), f.path());
            try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
                rowGroups.addAll(reader.getRowGroups());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return rowGroups;
    }
}
