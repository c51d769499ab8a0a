package dev.seqgen.boot.actuate;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.ForwardingSequenceStore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;

import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The health indicator's reads of the store rows: reused for a short while, and never queued behind another
 * check's read (which, on the JDBC store's dedicated connection, waits behind the reservations).
 */
class SeqgenHealthIndicatorStoreReadTest {

    private final AtomicLong now = new AtomicLong();

    private final ObservedStore store = new ObservedStore(h2Store());

    private final SequenceRegistry registry = SequenceRegistry.builder(store).build();

    private final SeqgenHealthIndicator indicator = new SeqgenHealthIndicator(registry,
            List.of("orders", "invoices"), 0.8, now::get);

    @AfterEach
    void close() {
        store.release.release(100);
        registry.close();
    }

    @Test
    void checksWithinTheTimeToLiveReuseOneReadOfTheRows() {
        registry.sequence("orders").next();
        int before = store.reads.get();

        Health first = indicator.health();
        Health second = indicator.health();
        assertThat(first.getStatus()).isEqualTo(Status.UP);
        assertThat(second.getDetails()).isEqualTo(first.getDetails());
        assertThat(store.reads.get() - before).as("one read per sequence for both checks").isEqualTo(2);

        now.addAndGet(SeqgenHealthIndicator.STORE_READ_TIME_TO_LIVE.toNanos());
        indicator.health();
        assertThat(store.reads.get() - before).as("read again once the rows are too old").isEqualTo(4);
    }

    @Test
    void aCheckDoesNotWaitForAnotherChecksReadButAnswersWithTheLastRows() throws Exception {
        registry.sequence("orders").next();
        Health first = indicator.health();
        now.addAndGet(SeqgenHealthIndicator.STORE_READ_TIME_TO_LIVE.toNanos());

        store.blockReads();
        CompletableFuture<Health> slow = CompletableFuture.supplyAsync(indicator::health, Concurrently.OWN_THREAD);
        assertThat(store.readStarted.await(30, TimeUnit.SECONDS)).as("the first check is reading").isTrue();

        Health meanwhile = CompletableFuture.supplyAsync(indicator::health, Concurrently.OWN_THREAD).get(30, TimeUnit.SECONDS);
        assertThat(meanwhile.getDetails()).as("the previous rows, without waiting").isEqualTo(first.getDetails());

        store.release.release(100);
        assertThat(slow.get(30, TimeUnit.SECONDS).getStatus()).isEqualTo(Status.UP);
    }

    private static JdbcSequenceStore h2Store() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:seqgen-health-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        return JdbcSequenceStore.builder(h2).build();
    }

    /** The H2 store, counting reads of the rows; once told, each read waits until released. */
    private static final class ObservedStore extends ForwardingSequenceStore {

        private final AtomicInteger reads = new AtomicInteger();

        private final CountDownLatch readStarted = new CountDownLatch(1);

        private final Semaphore release = new Semaphore(0);

        private volatile boolean blocking;

        ObservedStore(JdbcSequenceStore delegate) {
            super(delegate);
        }

        void blockReads() {
            blocking = true;
        }

        @Override
        public OptionalLong nextValue(String sequence) {
            reads.incrementAndGet();
            if (blocking) {
                readStarted.countDown();
                release.acquireUninterruptibly();
            }
            return delegate.nextValue(sequence);
        }
    }
}
