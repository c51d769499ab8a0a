package dev.seqgen.jmh;

import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store in memory whose reservations take a set time, after the stub JDBC driver of HikariCP's
 * benchmarks: with no latency it leaves only seqgen's own cost to measure, with latency it stands in for a
 * remote database. Each row is an {@link AtomicLong} moved forward with a compare-and-set.
 *
 * <p>The latency is spent before the row changes and holds no lock, so concurrent reservations overlap. That
 * is enough for the JMH benchmarks, where BATCH and ASYNC_BATCH refill one block at a time and Hibernate's
 * optimizers refill under their own lock; the strategy table, which needs reservations serialised on the row,
 * injects its latency into real database commits instead.
 *
 * <p>SYNC is not supported: it takes its value inside the caller's database transaction, which only the
 * strategy table models.
 */
public final class StubSequenceStore implements SequenceStore {

    private final ConcurrentHashMap<String, AtomicLong> rows = new ConcurrentHashMap<>();
    private final long latencyNanos;

    private StubSequenceStore(long latencyNanos) {
        this.latencyNanos = latencyNanos;
    }

    /**
     * Returns a store whose reservations return at once.
     *
     * @return a new, empty store
     */
    public static StubSequenceStore instant() {
        return new StubSequenceStore(0);
    }

    /**
     * Returns a store whose every reservation takes at least {@code latency}.
     *
     * @param latency the time one reservation takes
     * @return a new, empty store
     */
    public static StubSequenceStore withLatency(Duration latency) {
        return new StubSequenceStore(latency.toNanos());
    }

    @Override
    public String name() {
        return "stub";
    }

    @Override
    public void createSequence(String sequence, long initialValue) {
        rows.putIfAbsent(sequence, new AtomicLong(initialValue));
    }

    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        Pause.nanos(latencyNanos);
        AtomicLong row = row(sequence);
        for (;;) {
            long next = row.get();
            if (next > maxValue) {
                throw new SequenceExhaustedException(sequence, maxValue);
            }
            long end = next + Math.min(count, maxValue - next + 1);
            if (row.compareAndSet(next, end)) {
                return new ReservedRange(next, end);
            }
        }
    }

    @Override
    public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
        throw new UnsupportedOperationException("the stub store has no transactions; measure SYNC with StrategyTable");
    }

    @Override
    public OptionalLong nextValue(String sequence) {
        AtomicLong row = rows.get(sequence);
        return row == null ? OptionalLong.empty() : OptionalLong.of(row.get());
    }

    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        return row(sequence).compareAndSet(expectedNextValue, restoredNextValue);
    }

    private AtomicLong row(String sequence) {
        AtomicLong row = rows.get(sequence);
        if (row == null) {
            throw new SequenceStoreException("no row for sequence '" + sequence + "'", null, false);
        }
        return row;
    }
}
