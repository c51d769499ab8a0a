package dev.seqgen.reliability;

import dev.seqgen.testing.ForwardingSequenceStore;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A store that delays every reservation by a random few microseconds and fails some of them transiently,
 * half of those <em>after</em> the reservation committed, as a lost connection during the commit
 * acknowledgement would: the caller cannot know whether the values were taken, retries, and the values of
 * the first attempt become a gap nobody counted. This store counts them, so that a test can still account
 * for every value.
 */
final class JitteryStore extends ForwardingSequenceStore {

    private final long maxLatencyNanos;
    private final double failureRate;
    private final AtomicLong lostToUnknownOutcome = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    /**
     * @param store the real store
     * @param maxLatencyNanos each reservation waits a random time up to this
     * @param failureRate the share of reservations that fail transiently, half before and half after the commit
     */
    JitteryStore(SequenceStore store, long maxLatencyNanos, double failureRate) {
        super(store);
        this.maxLatencyNanos = maxLatencyNanos;
        this.failureRate = failureRate;
    }

    /** Values committed by reservations whose caller was told they failed. */
    long lostToUnknownOutcome() {
        return lostToUnknownOutcome.get();
    }

    /** Transient failures injected. */
    long failures() {
        return failures.get();
    }

    @Override
    public String name() {
        return "jittery-" + delegate.name();
    }

    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (maxLatencyNanos > 0) {
            LockSupport.parkNanos(random.nextLong(maxLatencyNanos + 1));
        }
        double dice = random.nextDouble();
        if (dice < failureRate / 2) {
            failures.incrementAndGet();
            throw new SequenceStoreException("injected: connection reset before the update", null, true);
        }
        ReservedRange range = delegate.reserve(sequence, count, maxValue);
        if (dice < failureRate) {
            failures.incrementAndGet();
            lostToUnknownOutcome.addAndGet(range.count());
            throw new SequenceStoreException("injected: connection reset while committing", null, true);
        }
        return range;
    }

}
