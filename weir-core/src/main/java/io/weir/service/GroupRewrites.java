package io.weir.service;

import io.weir.Compaction;
import io.weir.DataFile;
import io.weir.ScanTask;
import io.weir.exceptions.FileGroupCompactionException;
import io.weir.util.DaemonThreads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiConsumer;

/**
 * {@link Compaction#rewriteAll}: each thread takes the next group of the plan until all are done or
 * one fails. A failure stops only the taking: a rewrite that runs finishes, so that its outputs are
 * known and deleted with the rest instead of left behind as orphans.
 */
final class GroupRewrites {
    private final Compaction compaction;
    private final String location;
    private final List<ScanTask> tasks;
    private final BiConsumer<ScanTask, List<DataFile>> onRewritten;
    private final AtomicReferenceArray<List<DataFile>> outputs;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean interrupted;

    /** The thread that called: its interrupt stops the workers too, wherever it waits. */
    private final Thread caller = Thread.currentThread();

    private GroupRewrites(
            Compaction compaction,
            String location,
            List<ScanTask> tasks,
            BiConsumer<ScanTask, List<DataFile>> onRewritten) {
        this.compaction = compaction;
        this.location = location;
        this.tasks = List.copyOf(tasks);
        this.onRewritten = onRewritten;
        this.outputs = new AtomicReferenceArray<>(tasks.size());
    }

    static List<DataFile> run(
            Compaction compaction,
            String location,
            List<ScanTask> tasks,
            int threads,
            BiConsumer<ScanTask, List<DataFile>> onRewritten)
            throws InterruptedException {
        if (threads < 1) {
            throw new IllegalArgumentException(
                    "Cannot compact table " + location + " on " + threads + " threads: at least 1");
        }
        return new GroupRewrites(compaction, location, tasks, onRewritten).run(threads);
    }

    private List<DataFile> run(int threads) throws InterruptedException {
        int workers = Math.min(threads, tasks.size());
        if (workers <= 1) {
            work();
        } else {
            ExecutorService pool =
                    Executors.newFixedThreadPool(workers, DaemonThreads.named("weir-rewrite"));
            for (int i = 0; i < workers; i++) {
                pool.execute(this::work);
            }
            pool.shutdown();
            try {
                while (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
                    // the rewrites of large groups take their time
                }
            } catch (InterruptedException e) {
                interrupted = true;
                pool.shutdownNow();
                awaitUninterruptibly(pool);
            }
        }
        // An interrupt the workers stopped for, or that came after the last group: the call
        // throws it (clearing the flag, as InterruptedException does), nothing is kept.
        if (Thread.interrupted()) {
            interrupted = true;
        }
        if (interrupted || failure.get() != null) {
            compaction.abort(written());
            if (interrupted) {
                throw new InterruptedException(
                        "Compaction of table " + location + " interrupted; nothing was committed");
            }
            Throwable t = failure.get();
            if (t instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) t;
        }
        return written();
    }

    private void work() {
        while (failure.get() == null
                && !interrupted
                && !caller.isInterrupted()
                && !Thread.currentThread().isInterrupted()) {
            int i = next.getAndIncrement();
            if (i >= tasks.size()) {
                return;
            }
            ScanTask task = tasks.get(i);
            try {
                List<DataFile> written;
                try {
                    written = compaction.rewrite(task);
                } catch (RuntimeException e) {
                    throw new FileGroupCompactionException(
                            location, task.fileGroup().toString(), task.files().size(), e);
                }
                outputs.set(i, written);
                onRewritten.accept(task, written);
            } catch (RuntimeException | Error e) {
                failure.compareAndSet(null, e);
                return;
            }
        }
    }

    /** The outputs written so far, in the plan's order. */
    private List<DataFile> written() {
        List<DataFile> all = new ArrayList<>();
        for (int i = 0; i < outputs.length(); i++) {
            List<DataFile> files = outputs.get(i);
            if (files != null) {
                all.addAll(files);
            }
        }
        return all;
    }

    /** Waits for rewrites that were interrupted to end, so that their outputs are known. */
    private static void awaitUninterruptibly(ExecutorService pool) {
        while (true) {
            try {
                if (pool.awaitTermination(1, TimeUnit.MINUTES)) {
                    return;
                }
            } catch (InterruptedException e) {
                // already stopping: the InterruptedException this call throws says so
            }
        }
    }
}
