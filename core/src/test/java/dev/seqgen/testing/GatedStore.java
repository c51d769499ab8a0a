package dev.seqgen.testing;

import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store whose own-transaction reservations, from the {@code n}th on, wait until the test opens the gate: the way a
 * test makes a refill late, or orders a background reservation after an event, without hoping for a timing.
 */
public final class GatedStore extends ForwardingSequenceStore {

    private final int firstGated;
    private final AtomicInteger calls = new AtomicInteger();
    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch reached = new CountDownLatch(1);

    /**
     * Wraps a store.
     *
     * @param delegate the store that serves the reservations
     * @param firstGated the number (1-based) of the first reservation that waits for the gate
     */
    public GatedStore(SequenceStore delegate, int firstGated) {
        super(delegate);
        this.firstGated = firstGated;
    }

    /** Lets every waiting and later reservation through. */
    public void open() {
        gate.countDown();
    }

    /**
     * Waits until a gated reservation has reached the gate.
     *
     * @throws AssertionError if none does within a minute
     */
    public void awaitGatedCall() throws InterruptedException {
        if (!reached.await(1, TimeUnit.MINUTES)) {
            throw new AssertionError("no reservation reached the gate within a minute");
        }
    }

    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        if (calls.incrementAndGet() >= firstGated) {
            reached.countDown();
            try {
                if (!gate.await(1, TimeUnit.MINUTES)) {
                    throw new AssertionError("the gate was not opened within a minute");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted at the gate", e);
            }
        }
        return delegate.reserve(sequence, count, maxValue);
    }
}
