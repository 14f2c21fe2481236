package io.weir.cli.quickstart;

import io.weir.Commit;
import io.weir.DataFile;
import io.weir.Table;

import java.io.PrintStream;

/** Prints each new commit of a table while a job writes it, from a background thread. */
final class CommitProgress implements AutoCloseable {
    private final Table table;
    private final PrintStream out;
    private final Thread thread;
    private final long started = System.nanoTime();
    private volatile boolean stopped;
    private long printed;
    private long records;

    CommitProgress(Table table, PrintStream out) {
        this.table = table;
        this.out = out;
        this.thread = new Thread(this::run, "weir-quickstart-progress");
        this.thread.setDaemon(true);
    }

    CommitProgress start() {
        thread.start();
        return this;
    }

    private void run() {
        while (!stopped) {
            printNewCommits();
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void printNewCommits() {
        table.refresh();
        long latest = table.currentSnapshot().id();
        for (long id = printed + 1; id <= latest; id++) {
            Commit commit = table.commit(id);
            long added = commit.added().stream().mapToLong(DataFile::recordCount).sum();
            records += added;
            out.printf(
                    "  %5.1f s  commit %3d: %,9d records in %d log files  (%,d so far)%n",
                    (System.nanoTime() - started) / 1e9, id, added, commit.added().size(), records);
            printed = id;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.interrupt();
        thread.join();
        printNewCommits();
    }
}
