package dev.seqgen.hibernate;

import org.hibernate.HibernateException;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.id.IntegralDataTypeHolder;
import org.hibernate.id.enhanced.AccessCallback;
import org.hibernate.id.enhanced.InitialValueAwareOptimizer;
import org.hibernate.id.enhanced.Optimizer;
import org.hibernate.id.enhanced.PooledOptimizer;
import org.hibernate.sql.ast.tree.expression.Expression;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * An opt-in drop-in for Hibernate's {@code pooled} optimizer, for existing {@code @SequenceGenerator(allocationSize >
 * 1)} ids: the same values from the same database sequence (it can run beside nodes on {@code pooled}, not on
 * {@code pooled-lo} or {@code hilo}), taken without a lock, the next block fetched when a quarter of the current one
 * is left. A stopped JVM leaves up to two blocks unused; ids are unique, not ordered across threads. It honours
 * {@code hibernate.id.sequence.increment_size_mismatch_strategy} ({@link PooledOptimizerChecks}) and, where the
 * increment is unknown at start-up, fetches twice before the first value and fails the inserts of a sequence whose
 * values are not a multiple of {@code allocationSize} apart. See docs/hibernate-generator.md. Enable it with
 * <pre>
 * hibernate.id.optimizer.pooled.preferred=dev.seqgen.hibernate.SeqgenPooledOptimizer
 * </pre>
 *
 * <pre>
 * Design (lock-free path): per tenant, a volatile reference to the current block, whose offset counter advances by
 * getAndIncrement; a claim below the size is the caller's value, handed out once. The caller whose claim lands on
 * the trigger offset fetches the next block on its own session and queues it in ready (unless one is queued). A
 * caller finding the block exhausted takes refillLock, re-reads current, then installs a ready block or fetches
 * one. Only refillLock holders write current, so no block is lost; a late block waits in ready.
 * </pre>
 */
public final class SeqgenPooledOptimizer implements Optimizer, InitialValueAwareOptimizer {

    private final Class<?> returnClass;
    /** The allocation size, or the database sequence's increment after {@link #adoptDatabaseIncrement}. */
    private volatile int incrementSize;
    /** Values left in a block when the fetch ahead starts. */
    private volatile int lowWatermark;
    /** Delegate for the SQL of insert-select statements, which only depends on the pooled reading. */
    private volatile PooledOptimizer sqlShape;
    private volatile long initialValue = -1;
    /** Whether the start-up check saw the sequence step by the block size: the first use then fetches once. */
    private volatile boolean incrementVerified;
    private volatile State noTenant = new State();
    private volatile ConcurrentHashMap<String, State> tenants = new ConcurrentHashMap<>();

    /**
     * Creates the optimizer; called by Hibernate's optimizer factory.
     *
     * @param returnClass the id type: {@code Long}, {@code Integer}, {@code Short}, {@code BigInteger} or
     *     {@code BigDecimal}, or the primitives
     * @param incrementSize the allocation size, at least 1
     * @throws HibernateException if the increment size is less than 1 or the id type is not integral
     */
    public SeqgenPooledOptimizer(Class<?> returnClass, int incrementSize) {
        if (incrementSize < 1) {
            throw new HibernateException("increment size cannot be less than 1, got " + incrementSize);
        }
        if (!isIntegral(returnClass)) {
            throw new HibernateException("SeqgenPooledOptimizer generates integral ids, not " + returnClass.getName());
        }
        this.returnClass = returnClass;
        this.incrementSize = incrementSize;
        this.lowWatermark = incrementSize / 4;
        this.sqlShape = new PooledOptimizer(returnClass, incrementSize);
    }

    private static boolean isIntegral(Class<?> type) {
        return type == Long.class || type == long.class || type == Integer.class || type == int.class
                || type == Short.class || type == short.class || type == BigInteger.class || type == BigDecimal.class;
    }

    /** Takes the database sequence's increment as the block size ({@code increment_size_mismatch_strategy=fix}). */
    void adoptDatabaseIncrement(int databaseIncrement) {
        if (databaseIncrement < 1) {
            throw new HibernateException("the database sequence's increment must be at least 1 for"
                    + " SeqgenPooledOptimizer, got " + databaseIncrement);
        }
        PooledOptimizer shape = new PooledOptimizer(returnClass, databaseIncrement);
        if (initialValue != -1) {
            shape.injectInitialValue(initialValue);
        }
        this.incrementSize = databaseIncrement;
        this.lowWatermark = databaseIncrement / 4;
        this.sqlShape = shape;
        this.incrementVerified = true;
        reset();
    }

    /** Records that the start-up check saw the database sequence step by the block size. */
    void incrementVerified() {
        this.incrementVerified = true;
    }

    @Override
    public void injectInitialValue(long initialValue) {
        this.initialValue = initialValue;
        sqlShape.injectInitialValue(initialValue);
    }

    @Override
    public Serializable generate(AccessCallback callback) {
        String tenant = callback.getTenantIdentifier();
        State state = tenant == null ? noTenant : tenants.computeIfAbsent(tenant, t -> new State());
        Block block = state.current;
        long offset = block.claims.getAndIncrement();
        if (offset < block.size) {
            if (offset == block.triggerAt && state.ready.isEmpty()) {
                state.ready.add(fetch(state, callback, false));
            }
            return convert(block.start + offset);
        }
        return convert(state.refillAndClaim(callback));
    }

    /**
     * Fetches the next database value and returns its block: {@code (value - incrementSize, value]}, or the
     * value alone when it is the first of a new sequence (as {@code pooled} reads it).
     */
    private Block fetch(State state, AccessCallback callback, boolean first) {
        IntegralDataTypeHolder holder = callback.getNextValue();
        long value = holder.toLong();
        state.lastSourceValue = holder;
        long previous = state.lastValue.getAndSet(value);
        int incrementSize = this.incrementSize;
        if (previous != Long.MIN_VALUE && ((value - previous) % incrementSize != 0 || value == previous)) {
            throw new HibernateException("the database sequence returned " + previous + " and then " + value
                    + ", which are not a multiple of allocationSize " + incrementSize + " apart: its INCREMENT BY"
                    + " must equal the allocationSize for SeqgenPooledOptimizer (as for Hibernate's pooled)");
        }
        boolean standsAlone = first && ((initialValue == -1 && value < incrementSize) || value == initialValue);
        long start = standsAlone ? value : value - incrementSize + 1;
        // The block's last value is the database value itself; nothing here adds to it, so a database value
        // of Long.MAX_VALUE is a block like any other and never wraps.
        return new Block(start, value, lowWatermark);
    }

    private Serializable convert(long value) {
        if (returnClass == Long.class || returnClass == long.class) {
            return value;
        }
        if (returnClass == Integer.class || returnClass == int.class) {
            return Math.toIntExact(value);
        }
        if (returnClass == Short.class || returnClass == short.class) {
            if (value > Short.MAX_VALUE) {
                throw new HibernateException("sequence value " + value + " exceeds the short id range");
            }
            return (short) value;
        }
        return returnClass == BigInteger.class ? BigInteger.valueOf(value) : BigDecimal.valueOf(value);
    }

    @Override
    public @Nullable IntegralDataTypeHolder getLastSourceValue() {
        return noTenant.lastSourceValue;
    }

    @Override
    public int getIncrementSize() {
        return incrementSize;
    }

    /** @return true: each database value stands for a block of {@code incrementSize} values */
    @Override
    public boolean applyIncrementSizeToSourceValues() {
        return true;
    }

    @Override
    public Expression createLowValueExpression(Expression databaseValue, SessionFactoryImplementor sessionFactory) {
        return sqlShape.createLowValueExpression(databaseValue, sessionFactory);
    }

    @Override
    public int getAdjustment() {
        return sqlShape.getAdjustment();
    }

    /** Forgets the blocks in hand, as Hibernate asks when it resets generators. */
    @Override
    public void reset() {
        noTenant = new State();
        tenants = new ConcurrentHashMap<>();
    }

    /**
     * A block {@code [start, last]} claimed through an offset counter: claims on an exhausted block only grow the
     * offset past the size, so none becomes a value beyond {@code last} or wraps past {@code Long.MAX_VALUE}.
     */
    private static final class Block {

        static final Block EMPTY = new Block(0, -1, 0);

        final long start;
        final long size;
        final AtomicLong claims = new AtomicLong();
        /** The offset at which a quarter of the block is left, or -1 when the block is too small to matter. */
        final long triggerAt;

        Block(long start, long last, int lowWatermark) {
            this.start = start;
            this.size = last - start + 1;
            this.triggerAt = size > lowWatermark && lowWatermark > 0 ? size - lowWatermark - 1 : -1;
        }
    }

    /** The blocks of one tenant. */
    private final class State {

        volatile Block current = Block.EMPTY;
        final ConcurrentLinkedQueue<Block> ready = new ConcurrentLinkedQueue<>();
        final ReentrantLock refillLock = new ReentrantLock();
        /** The last database value fetched, or Long.MIN_VALUE before the first. */
        final AtomicLong lastValue = new AtomicLong(Long.MIN_VALUE);
        volatile @Nullable IntegralDataTypeHolder lastSourceValue;

        /** The slow path: the current block is exhausted. */
        long refillAndClaim(AccessCallback callback) {
            refillLock.lock();
            try {
                for (;;) {
                    Block block = current;
                    long offset = block.claims.getAndIncrement();
                    if (offset < block.size) {
                        return block.start + offset;
                    }
                    Block next = ready.poll();
                    if (next == null) {
                        boolean first = lastValue.get() == Long.MIN_VALUE;
                        next = fetch(this, callback, first);
                        if (first && !incrementVerified) {
                            // Fetch twice before handing anything out, so that a sequence whose increment is
                            // not the allocation size is caught before a single value could collide (unless the
                            // start-up check already saw the increment).
                            ready.add(fetch(this, callback, false));
                        }
                    }
                    current = next;
                }
            } finally {
                refillLock.unlock();
            }
        }
    }
}
