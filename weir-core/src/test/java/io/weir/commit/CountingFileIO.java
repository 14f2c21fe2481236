package io.weir.commit;

import io.weir.io.InputFile;
import io.weir.testing.ForwardingFileIO;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Records every file read (existing or not), to bound what loading a table costs. */
final class CountingFileIO extends ForwardingFileIO {
    private final List<String> reads = new ArrayList<>();

    @Override
    public synchronized InputFile newInputFile(String path) {
        reads.add(path);
        return super.newInputFile(path);
    }

    @Override
    public synchronized byte[] readAllBytes(String path) throws IOException {
        reads.add(path);
        return super.readAllBytes(path);
    }

    synchronized List<String> reads() {
        return List.copyOf(reads);
    }

    synchronized void reset() {
        reads.clear();
    }

    long readsUnder(String directory) {
        return reads().stream().filter(p -> p.contains("/_weir/" + directory + "/")).count();
    }
}
