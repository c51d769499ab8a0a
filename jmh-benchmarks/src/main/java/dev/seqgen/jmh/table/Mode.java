package dev.seqgen.jmh.table;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenPooledOptimizer;
import dev.seqgen.jmh.HibernateOptimizerSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.hibernate.id.enhanced.OptimizerDescriptor;
import org.hibernate.id.enhanced.StandardOptimizerDescriptor;

/**
 * How a caller gets its value, and the rate that way of getting values can never beat. Every caller thread
 * repeats one simulated application transaction ({@code app}) that needs one value; {@code N} is the block
 * size; {@code store} and {@code call} are the time one reservation keeps the sequence row locked and the time
 * of one native sequence call: the injected latency when there is one (see {@link Session#storeForBounds()}),
 * the measured round trips otherwise.
 */
enum Mode {

    /**
     * seqgen SYNC: the values are taken inside the application transaction, one increment each
     * ({@code --entities-per-tx} of them, {@code K}), so the row stays locked for the whole transaction.
     */
    SYNC("sync", "K / (app + store)") {
        @Override
        Workload open(Session session) {
            SequenceRegistry registry = session.registry(Strategy.SYNC);
            Sequence sequence = registry.sequence("strategy_table_sync");
            int values = session.entitiesPerTransaction();
            return workload(registry, () -> session.inTransaction(transaction -> each(sequence, transaction, values)));
        }

        @Override
        double bound(Session session, int threads) {
            return session.entitiesPerTransaction() * perSecond(session.appNanos() + session.storeForBounds());
        }
    },

    /**
     * seqgen SYNC taken last, the shape of flush-time numbers ({@code @SeqgenNumber} with Hibernate's flush at
     * commit): the application transaction's work first, then <em>one</em> increment by the {@code K} values
     * the flush's inserts need ({@code --entities-per-tx}), then the commit. The row is locked only from the
     * increment to the end of the commit, so the callers queue for {@code store} each, not for
     * {@code app + store}, and a transaction of K values holds the row no longer than one of 1. When the run
     * ends, the committed values are checked to be exactly the row's first value (1 on a fresh row) to n: the
     * run fails if one is missing or repeated.
     */
    SYNC_AT_FLUSH("sync-at-flush", "min(K / store, threads K / (app + store))") {
        @Override
        Workload open(Session session) {
            return gaplessAtFlush(session, "strategy_table_sync_at_flush",
                    (sequence, transaction, values) -> sequence.nextValuesInTransaction(transaction, values)[0]);
        }

        /**
         * Like ASYNC's: the row-lock limit K / store holds only on an injected latency, which every commit on
         * the row waits with the lock held; the measured round trip is no floor for the lock time, so without an
         * injected latency the bound is the callers' own.
         */
        @Override
        double bound(Session session, int threads) {
            return atFlushBound(session, threads);
        }

        @Override
        String boundFormula(Session session) {
            return session.boundsOnInjectedLatency() ? super.boundFormula(session) : "threads K / (app + store)";
        }
    },

    /**
     * As {@link #SYNC_AT_FLUSH}, but one increment per value, each while the transaction holds the row: how a
     * flush's numbers were taken before they were reserved together, for comparison. Checked gapless alike.
     */
    SYNC_AT_FLUSH_EACH("sync-at-flush-each", "min(K / store, threads K / (app + store))") {
        @Override
        Workload open(Session session) {
            return gaplessAtFlush(session, "strategy_table_sync_at_flush_each", Mode::each);
        }

        @Override
        double bound(Session session, int threads) {
            return atFlushBound(session, threads);
        }

        @Override
        String boundFormula(Session session) {
            return session.boundsOnInjectedLatency() ? super.boundFormula(session) : "threads K / (app + store)";
        }
    },

    /**
     * seqgen ASYNC: one reservation of its own per value, before the application transaction. Its row-lock
     * limit, 1 / store, needs the time the database keeps the row locked, which only an injected latency
     * bounds from below; without one, the bound is the callers' own: threads / (app + store).
     */
    ASYNC("async", "min(1 / store, threads / (app + store))") {
        @Override
        Workload open(Session session) {
            return seqgen(session, Strategy.ASYNC, false);
        }

        @Override
        double bound(Session session, int threads) {
            long store = session.storeForBounds();
            double callers = threads * perSecond(session.appNanos() + store);
            return session.boundsOnInjectedLatency() ? Math.min(perSecond(store), callers) : callers;
        }

        @Override
        String boundFormula(Session session) {
            return session.boundsOnInjectedLatency() ? super.boundFormula(session) : "threads / (app + store)";
        }
    },

    /** seqgen BATCH. */
    BATCH("batch", "min(N / store, threads / app)") {
        @Override
        Workload open(Session session) {
            return seqgen(session, Strategy.BATCH, false);
        }

        @Override
        double bound(Session session, int threads) {
            return blockBound(session, threads, session.storeForBounds());
        }
    },

    /** seqgen ASYNC_BATCH. */
    ASYNC_BATCH("async-batch", "min(N / store, threads / app)") {
        @Override
        Workload open(Session session) {
            return seqgen(session, Strategy.ASYNC_BATCH, false);
        }

        @Override
        double bound(Session session, int threads) {
            return blockBound(session, threads, session.storeForBounds());
        }
    },

    /**
     * Hibernate's {@code PooledOptimizer} over the database's own sequence stepping by N, which is what
     * {@code @SequenceGenerator(allocationSize = N)} builds.
     */
    HIBERNATE_POOLED("hibernate-pooled", "min(N / call, threads / app)") {
        @Override
        Workload open(Session session) {
            return pooled(session, StandardOptimizerDescriptor.POOLED);
        }

        @Override
        double bound(Session session, int threads) {
            return blockBound(session, threads, session.callForBounds());
        }

        @Override
        boolean usesNativeSequence() {
            return true;
        }
    },

    /**
     * seqgen's {@code SeqgenPooledOptimizer}, the lock-free drop-in for Hibernate's pooled optimizer, over the
     * same sequence.
     */
    SEQGEN_POOLED("seqgen-pooled", "min(N / call, threads / app)") {
        @Override
        Workload open(Session session) {
            return pooled(session, StandardOptimizerDescriptor.fromExternalName(SeqgenPooledOptimizer.class.getName()));
        }

        @Override
        double bound(Session session, int threads) {
            return blockBound(session, threads, session.callForBounds());
        }

        @Override
        boolean usesNativeSequence() {
            return true;
        }
    },

    /**
     * seqgen ASYNC over the native-sequence store: one {@code nextval} of an increment-1 database sequence per
     * value, with seqgen's timeouts, retries and metrics around it; no row lock.
     */
    NATIVE_ASYNC("native-async", "threads / (app + call)") {
        @Override
        Workload open(Session session) {
            return seqgen(session, Strategy.ASYNC, true);
        }

        @Override
        double bound(Session session, int threads) {
            return threads * perSecond(session.appNanos() + session.callForBounds());
        }

        @Override
        boolean usesNativeSequence() {
            return true;
        }
    },

    /** seqgen BATCH over the native-sequence store: one {@code nextval} of increment N per block. */
    NATIVE_BATCH("native-batch", "min(N / call, threads / app)") {
        @Override
        Workload open(Session session) {
            return seqgen(session, Strategy.BATCH, true);
        }

        @Override
        double bound(Session session, int threads) {
            return blockBound(session, threads, session.callForBounds());
        }

        @Override
        boolean usesNativeSequence() {
            return true;
        }
    },

    /** seqgen ASYNC_BATCH over the native-sequence store. */
    NATIVE_ASYNC_BATCH("native-async-batch", "min(N / call, threads / app)") {
        @Override
        Workload open(Session session) {
            return seqgen(session, Strategy.ASYNC_BATCH, true);
        }

        @Override
        double bound(Session session, int threads) {
            return blockBound(session, threads, session.callForBounds());
        }

        @Override
        boolean usesNativeSequence() {
            return true;
        }
    },

    /** One call of the database's own sequence per value: no row lock, but a round trip every time. */
    NATIVE_SEQUENCE("native-sequence", "threads / (app + call)") {
        @Override
        Workload open(Session session) {
            LongSupplier sequence = session.nativeSequence(1);
            return workload(null, () -> {
                long value = sequence.getAsLong();
                session.applicationTransaction();
                return value;
            });
        }

        @Override
        double bound(Session session, int threads) {
            return threads * perSecond(session.appNanos() + session.callForBounds());
        }

        @Override
        boolean usesNativeSequence() {
            return true;
        }
    };

    final String option;
    private final String boundFormula;

    Mode(String option, String boundFormula) {
        this.option = option;
        this.boundFormula = boundFormula;
    }

    /** How {@link #bound} is computed, for the table. */
    String boundFormula(Session session) {
        return boundFormula;
    }

    /** Prepares the mode on the session's database; close the workload when the run is over. */
    abstract Workload open(Session session);

    /** The rate in values per second that this mode cannot beat with {@code threads} callers. */
    abstract double bound(Session session, int threads);

    boolean usesNativeSequence() {
        return false;
    }

    /** One caller's repeated unit of work, shared by all caller threads of a run. */
    interface Workload extends AutoCloseable {

        /** Takes one value and runs the simulated application transaction that uses it. */
        long runOnce() throws Exception;

        /** Reservations retried after a transient store error so far; 0 where seqgen takes no values. */
        default long retries() {
            return 0;
        }

        @Override
        void close();
    }

    @FunctionalInterface
    private interface Step {
        long run() throws Exception;
    }

    private static Workload workload(SequenceRegistry registry, Step step) {
        return new Workload() {
            @Override
            public long runOnce() throws Exception {
                return step.run();
            }

            @Override
            public void close() {
                if (registry != null) {
                    registry.close();
                }
            }
        };
    }

    /**
     * {@code --registries} registries of one strategy on one sequence, as that many JVMs; each caller thread
     * keeps to one of them, handed out in turn.
     */
    private static Workload seqgen(Session session, Strategy strategy, boolean nativeStore) {
        // A database sequence's increment is the block size and never changes: one sequence per block size.
        String name = "strategy_table_" + strategy.name().toLowerCase(java.util.Locale.ROOT)
                + (nativeStore ? "_" + session.blockSize() : "");
        List<SequenceRegistry> registries = new ArrayList<>();
        List<Sequence> sequences = new ArrayList<>();
        for (int i = 0; i < session.registries(); i++) {
            SequenceRegistry registry = nativeStore ? session.nativeRegistry(strategy) : session.registry(strategy);
            registries.add(registry);
            sequences.add(registry.sequence(name));
        }
        AtomicInteger turn = new AtomicInteger();
        ThreadLocal<Sequence> mine = ThreadLocal.withInitial(
                () -> sequences.get(Math.floorMod(turn.getAndIncrement(), sequences.size())));
        return new Workload() {
            @Override
            public long runOnce() {
                long value = mine.get().next();
                session.applicationTransaction();
                return value;
            }

            @Override
            public long retries() {
                return sequences.stream().mapToLong(s -> s.stats().retries()).sum();
            }

            @Override
            public void close() {
                registries.forEach(SequenceRegistry::close);
            }
        };
    }

    private static Workload pooled(Session session, OptimizerDescriptor optimizer) {
        HibernateOptimizerSource pooled = new HibernateOptimizerSource(optimizer, session.blockSize(),
                session.nativeSequence(session.blockSize()));
        return workload(null, () -> {
            long value = pooled.next();
            session.applicationTransaction();
            return value;
        });
    }

    /** How a SYNC mode takes the {@code values} values of one transaction; returns the first. */
    @FunctionalInterface
    private interface TakeValues {
        long take(Sequence sequence, Object transaction, int values);
    }

    /** Takes {@code values} values one increment each; they are consecutive while the transaction holds the row. */
    private static long each(Sequence sequence, Object transaction, int values) {
        long first = sequence.nextInTransaction(transaction);
        for (int i = 1; i < values; i++) {
            long value = sequence.nextInTransaction(transaction);
            if (value != first + i) {
                throw new IllegalStateException("sequence " + sequence.name() + " handed out " + value + " as value "
                        + (i + 1) + " of a transaction that began at " + first + ": not consecutive");
            }
        }
        return first;
    }

    /**
     * A SYNC mode that does the application work first and takes the transaction's values last, immediately
     * before the commit; the run fails at its end if the committed values are not exactly first..n.
     */
    private static Workload gaplessAtFlush(Session session, String name, TakeValues take) {
        SequenceRegistry registry = session.registry(Strategy.SYNC);
        Sequence sequence = registry.sequence(name);
        int values = session.entitiesPerTransaction();
        int rollbackEvery = session.rollbackEvery();
        AtomicLong transactions = new AtomicLong();
        long first = registry.store().nextValue(name).orElseThrow(
                () -> new IllegalStateException("sequence " + name + " has no row"));
        Queue<Long> committed = new ConcurrentLinkedQueue<>();
        return new Workload() {
            @Override
            public long runOnce() throws Exception {
                boolean rollBack = rollbackEvery > 0 && transactions.incrementAndGet() % rollbackEvery == 0;
                long firstOfTransaction;
                try {
                    firstOfTransaction = session.inTransactionValueLast(transaction -> {
                        long taken = take.take(sequence, transaction, values);
                        if (rollBack) {
                            // Thrown inside the transaction, so that the backend rolls it back as it would
                            // any failure of the application's flush.
                            throw new RolledBackOnPurpose();
                        }
                        return taken;
                    });
                } catch (RuntimeException e) {
                    throw RolledBackOnPurpose.isCause(e) ? new RolledBackOnPurpose() : e;
                }
                for (int i = 0; i < values; i++) {
                    committed.add(firstOfTransaction + i);
                }
                return firstOfTransaction;
            }

            @Override
            public void close() {
                try {
                    assertGapless(name, first, committed);
                } finally {
                    registry.close();
                }
            }
        };
    }

    private static double atFlushBound(Session session, int threads) {
        long store = session.storeForBounds();
        int values = session.entitiesPerTransaction();
        double callers = threads * values * perSecond(session.appNanos() + store);
        return session.boundsOnInjectedLatency() ? Math.min(values * perSecond(store), callers) : callers;
    }

    /** Whether the run checks at its end that the committed values are exactly first..n ({@code --rollback-every}). */
    boolean checksGapless() {
        return this == SYNC_AT_FLUSH || this == SYNC_AT_FLUSH_EACH;
    }

    /**
     * A transaction of a gapless mode rolled back on purpose ({@code --rollback-every}) after taking its values:
     * the run counts it apart from the failures, and none of its values as committed.
     */
    static final class RolledBackOnPurpose extends RuntimeException {

        RolledBackOnPurpose() {
            super("rolled back on purpose", null, false, false);
        }

        /** Whether it is the exception or one of its causes (a backend may wrap what the work threw). */
        static boolean isCause(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof RolledBackOnPurpose) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Whether the mode takes {@code --entities-per-tx} values per transaction; the others take one. */
    boolean takesSeveralValues() {
        return this == SYNC || this == SYNC_AT_FLUSH || this == SYNC_AT_FLUSH_EACH;
    }

    /** The committed values of a gapless mode must be exactly first..first + n - 1, each once. */
    private static void assertGapless(String sequence, long first, Queue<Long> committed) {
        long[] values = committed.stream().mapToLong(Long::longValue).sorted().toArray();
        for (int i = 0; i < values.length; i++) {
            if (values[i] != first + i) {
                throw new IllegalStateException(sequence + " is not gapless: of " + values.length
                        + " values committed on sequence " + sequence + " from " + first + ", position " + i
                        + " holds " + values[i] + " instead of " + (first + i));
            }
        }
    }

    private static double blockBound(Session session, int threads, long refillNanos) {
        return Math.min(session.blockSize() * perSecond(refillNanos), threads * perSecond(session.appNanos()));
    }

    private static double perSecond(long nanos) {
        return nanos <= 0 ? Double.POSITIVE_INFINITY : 1e9 / nanos;
    }

    static Mode fromOption(String option) {
        for (Mode mode : values()) {
            if (mode.option.equals(option)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("--modes: unknown mode '" + option
                + "' (expected sync, sync-at-flush, sync-at-flush-each, async, batch, async-batch, hibernate-pooled, seqgen-pooled, native-sequence,"
                + " native-async, native-batch, native-async-batch)");
    }
}
