package dev.seqgen.spanner;

import dev.seqgen.spi.SequenceStoreException;
import io.grpc.Context;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The threads every Spanner store runs its own operations on, and the timer of their deadlines: daemon threads that
 * end after a minute idle, so there is nothing to close.
 */
final class SpannerOwnThreads {

    private static final ExecutorService TRANSACTIONS = Executors.newCachedThreadPool(daemonThreads("seqgen-spanner-"));
    private static final ScheduledExecutorService DEADLINES = deadlineTimer();

    private SpannerOwnThreads() {
    }

    /**
     * Runs an operation on a store thread within a gRPC deadline and waits for it, so it is never nested in the
     * calling thread's transaction (docs/design.md#spanner-store). {@code table} is for the message.
     */
    static <T extends @Nullable Object> T call(String table, Duration timeout, Supplier<T> operation) {
        CompletableFuture<T> result = CompletableFuture.supplyAsync(() -> {
            Context.CancellableContext bounded = Context.current()
                    .withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS, DEADLINES);
            Context previous = bounded.attach();
            try {
                return operation.get();
            } finally {
                bounded.detach(previous);
                bounded.cancel(null);
            }
        }, TRANSACTIONS);
        try {
            return result.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) e.getCause(); // a Supplier throws nothing else
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SequenceStoreException("interrupted while waiting for a transaction on table " + table
                    + "; it may still commit, which leaves a gap", e, false);
        }
    }

    private static ScheduledExecutorService deadlineTimer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
                daemonThreads("seqgen-spanner-deadlines-"));
        timer.setKeepAliveTime(60, TimeUnit.SECONDS); // as the cached pool's threads
        timer.allowCoreThreadTimeOut(true);
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
