package dev.seqgen.testing;

import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A store in memory, for unit tests of the strategies only: rows guarded by a lock that models the row
 * lock (held by a {@link Transaction} until it commits or rolls back), with injectable latency and
 * failures.
 */
public final class InMemorySequenceStore implements SequenceStore {

    private final ConcurrentHashMap<String, Row> rows;
    private final AtomicLong reservations = new AtomicLong();
    private final AtomicInteger transientFailuresLeft = new AtomicInteger();
    private volatile long latencyNanos;
    private volatile boolean down;
    private volatile boolean keeping = true;
    private volatile RuntimeException permanentFailure;

    private static final class Row {
        final ReentrantLock lock = new ReentrantLock();
        long nextValue;
        /** Ranges kept for the fleet, by first value: their ends. */
        final TreeMap<Long, Long> kept = new TreeMap<>();

        Row(long nextValue) {
            this.nextValue = nextValue;
        }
    }

    private dev.seqgen.CounterKind kind = dev.seqgen.CounterKind.TABLE;

    /** A store over rows of its own. */
    public InMemorySequenceStore() {
        this(new ConcurrentHashMap<>());
    }

    private InMemorySequenceStore(ConcurrentHashMap<String, Row> rows) {
        this.rows = rows;
    }

    /**
     * Another store over the same rows, as another JVM's store over one table: no latency or failures of this
     * one's, its own count of reservations.
     */
    public InMemorySequenceStore sameRows() {
        return new InMemorySequenceStore(rows).kind(kind);
    }

    /** Makes the store say it counts in another kind (to test a registry's routing); default the table. */
    public InMemorySequenceStore kind(dev.seqgen.CounterKind kind) {
        this.kind = kind;
        return this;
    }

    @Override
    public dev.seqgen.CounterKind kind() {
        return kind;
    }

    /** Makes every reservation take this long, as a remote store would. */
    public InMemorySequenceStore latency(Duration latency) {
        this.latencyNanos = latency.toNanos();
        return this;
    }

    /** Makes the next {@code count} reservations fail with a transient error. */
    public InMemorySequenceStore failNextTransiently(int count) {
        transientFailuresLeft.set(count);
        return this;
    }

    /** Makes every operation fail with a transient "connection refused" until {@code down(false)}. */
    public InMemorySequenceStore down(boolean down) {
        this.down = down;
        return this;
    }

    /** Makes every reservation fail with this non-transient error, or with none if null. */
    public InMemorySequenceStore failPermanently(RuntimeException failure) {
        this.permanentFailure = failure;
        return this;
    }

    /** Returns how many reservations (own-transaction and in-transaction) succeeded. */
    public long reservations() {
        return reservations.get();
    }

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public void createSequence(String sequence, long initialValue) {
        checkUp();
        rows.putIfAbsent(sequence, new Row(initialValue));
    }

    /** Sets a row's next_value, as a person editing the table by hand would. */
    public void setNextValue(String sequence, long nextValue) {
        Row row = row(sequence);
        row.lock.lock();
        try {
            row.nextValue = nextValue;
        } finally {
            row.lock.unlock();
        }
    }

    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        long latency = latencyNanos;
        if (latency > 0) {
            LockSupport.parkNanos(latency);
        }
        checkUp();
        if (transientFailuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new SequenceStoreException("injected transient failure", null, true);
        }
        RuntimeException failure = permanentFailure;
        if (failure != null) {
            throw failure;
        }
        Row row = row(sequence);
        row.lock.lock();
        try {
            return take(row, sequence, count, maxValue);
        } finally {
            row.lock.unlock();
        }
    }

    private ReservedRange take(Row row, String sequence, long count, long maxValue) {
        if (row.nextValue > maxValue) {
            throw new SequenceExhaustedException(sequence, maxValue);
        }
        long got = Math.min(count, maxValue - row.nextValue + 1);
        ReservedRange range = new ReservedRange(row.nextValue, row.nextValue + got);
        row.nextValue = range.end();
        reservations.incrementAndGet();
        return range;
    }

    @Override
    public Class<?> transactionType() {
        return Transaction.class;
    }

    @Override
    public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
        if (!(transaction instanceof Transaction tx)) {
            throw new IllegalArgumentException("the in-memory store takes an InMemorySequenceStore.Transaction");
        }
        checkUp();
        Row row = row(sequence);
        lock(tx, row);
        return take(row, sequence, count, maxValue);
    }

    /**
     * Gives a tail back in the caller's transaction, which holds the row (or takes it) until it ends: a
     * compare-and-set on the row, undone by a rollback like the reservation.
     */
    @Override
    public boolean giveBackInTransaction(Object transaction, String sequence, long expectedNextValue,
            long restoredNextValue) {
        if (!(transaction instanceof Transaction tx)) {
            throw new IllegalArgumentException("the in-memory store takes an InMemorySequenceStore.Transaction");
        }
        checkUp();
        Row row = row(sequence);
        lock(tx, row);
        if (row.nextValue != expectedNextValue) {
            return false;
        }
        row.nextValue = restoredNextValue;
        return true;
    }

    /** Takes the row lock for the transaction, which holds it until it commits or rolls back. */
    private static void lock(Transaction tx, Row row) {
        if (!row.lock.isHeldByCurrentThread()) {
            try {
                if (!row.lock.tryLock(30, TimeUnit.SECONDS)) {
                    throw new SequenceStoreException("row lock wait timeout", null, true);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SequenceStoreException("interrupted", e, true);
            }
            tx.locked.push(row);
            tx.undo.push(new long[] {row.nextValue});
        }
    }

    private Row row(String sequence) {
        Row row = rows.get(sequence);
        if (row == null) {
            throw new SequenceStoreException("no row for sequence '" + sequence + "'", null, false);
        }
        return row;
    }

    private void checkUp() {
        if (down) {
            throw new SequenceStoreException("injected outage: connection refused", null, true);
        }
    }

    @Override
    public OptionalLong nextValue(String sequence) {
        Row row = rows.get(sequence);
        if (row == null) {
            return OptionalLong.empty();
        }
        row.lock.lock();
        try {
            return OptionalLong.of(row.nextValue);
        } finally {
            row.lock.unlock();
        }
    }

    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        checkUp();
        Row row = row(sequence);
        row.lock.lock();
        try {
            if (row.nextValue != expectedNextValue) {
                return false;
            }
            row.nextValue = restoredNextValue;
            return true;
        } finally {
            row.lock.unlock();
        }
    }

    /** Moves a row forward to {@code nextValue}, never backwards; false when there is no row or it is there. */
    @Override
    public boolean advance(String sequence, long nextValue) {
        checkUp();
        Row row = rows.get(sequence);
        if (row == null) {
            return false;
        }
        row.lock.lock();
        try {
            if (row.nextValue >= nextValue) {
                return false;
            }
            row.nextValue = nextValue;
            return true;
        } finally {
            row.lock.unlock();
        }
    }

    /** Makes the store keep no ranges for the fleet, as a native-sequence store; it keeps them by default. */
    public InMemorySequenceStore keeping(boolean keeping) {
        this.keeping = keeping;
        return this;
    }

    @Override
    public boolean keep(String sequence, long first, long end) {
        checkUp();
        if (!keeping) {
            return false;
        }
        Row row = row(sequence);
        row.lock.lock();
        try {
            row.kept.put(first, end);
            return true;
        } finally {
            row.lock.unlock();
        }
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long maxValue) {
        return takeKept(sequence, Long.MAX_VALUE, maxValue);
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
        return takeKept(sequence, Long.MIN_VALUE, count, maxValue);
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long from, long count, long maxValue) {
        checkUp();
        Row row = row(sequence);
        row.lock.lock();
        try {
            Map.Entry<Long, Long> lowest = row.kept.ceilingEntry(from);
            if (lowest == null || lowest.getKey() > maxValue) {
                return Optional.empty();
            }
            row.kept.remove(lowest.getKey());
            ReservedRange taken = ReservedRange.upTo(lowest.getKey(),
                    Math.min(count, lowest.getValue() - lowest.getKey()), maxValue);
            if (taken.end() < lowest.getValue() && taken.count() == count) {
                row.kept.put(taken.end(), lowest.getValue());
            }
            return Optional.of(taken);
        } finally {
            row.lock.unlock();
        }
    }

    @Override
    public List<ReservedRange> keptRanges(String sequence) {
        checkUp();
        Row row = rows.get(sequence);
        if (row == null) {
            return List.of();
        }
        row.lock.lock();
        try {
            return row.kept.entrySet().stream().map(e -> new ReservedRange(e.getKey(), e.getValue())).toList();
        } finally {
            row.lock.unlock();
        }
    }

    /** Starts a transaction for SYNC; it must be committed or rolled back by the thread that began it. */
    public Transaction begin() {
        return new Transaction();
    }

    /** A caller's transaction: holds the row locks it took until commit or rollback. */
    public static final class Transaction {
        private final Deque<Row> locked = new ArrayDeque<>();
        private final Deque<long[]> undo = new ArrayDeque<>();

        public void commit() {
            undo.clear();
            release();
        }

        public void rollback() {
            Row[] rowsLocked = locked.toArray(new Row[0]);
            long[][] before = undo.toArray(new long[0][]);
            for (int i = 0; i < rowsLocked.length; i++) {
                rowsLocked[i].nextValue = before[i][0];
            }
            undo.clear();
            release();
        }

        private void release() {
            while (!locked.isEmpty()) {
                locked.pop().lock.unlock();
            }
        }
    }
}
