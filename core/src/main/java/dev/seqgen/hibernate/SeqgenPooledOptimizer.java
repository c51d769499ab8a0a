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
 * A drop-in for Hibernate's {@code pooled} optimizer ({@code hibernate.id.optimizer.pooled.preferred}), thread-safe:
 * the same values from the same sequence, taken without a lock. Ids are unique, not ordered across threads; a stopped
 * JVM leaves up to two blocks unused (docs/hibernate-generator.md).
 *
 * <p>Lock-free path: per tenant, a volatile current block whose offset counter advances by getAndIncrement; a claim
 * below the size is the caller's value. The claim on the trigger offset fetches the next block and queues it in
 * ready. A caller finding the block exhausted takes refillLock, re-reads current, then installs a ready block or
 * fetches one. Only refillLock holders write current, so no block is lost; a late block waits in ready.
 */
public final class SeqgenPooledOptimizer implements Optimizer, InitialValueAwareOptimizer {

    private final Class<?> returnClass;
    /** The allocation size, or the database sequence's increment after {@link #adoptDatabaseIncrement}. */
    private volatile int incrementSize;
    /** For the SQL of insert-select statements. */
    private volatile PooledOptimizer sqlShape;
    private volatile long initialValue = -1;
    /** Whether the start-up check saw the sequence step by the block size: the first use then fetches once. */
    private volatile boolean incrementVerified;
    private volatile State noTenant = new State();
    private volatile ConcurrentHashMap<String, State> tenants = new ConcurrentHashMap<>();

    /** Called by Hibernate's optimizer factory; throws HibernateException for a size below 1 or a non-integral id. */
    public SeqgenPooledOptimizer(Class<?> returnClass, int incrementSize) {
        if (incrementSize < 1) {
            throw new HibernateException("increment size cannot be less than 1, got " + incrementSize);
        }
        if (!(returnClass == Long.class || returnClass == long.class || returnClass == Integer.class
                || returnClass == int.class || returnClass == Short.class || returnClass == short.class
                || returnClass == BigInteger.class || returnClass == BigDecimal.class)) {
            throw new HibernateException("SeqgenPooledOptimizer generates integral ids, not " + returnClass.getName());
        }
        this.returnClass = returnClass;
        this.incrementSize = incrementSize;
        this.sqlShape = new PooledOptimizer(returnClass, incrementSize);
    }

    /** Takes the database sequence's increment, read at start-up, as the block size (verified: one first fetch). */
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
        this.sqlShape = shape;
        this.incrementVerified = true;
        reset();
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

    /** The block of the next database value: {@code (value - incrementSize, value]}, or a new sequence's first. */
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
        // The block ends at the database value itself, so Long.MAX_VALUE never wraps.
        return new Block(start, value, incrementSize / 4);
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

    @Override
    public void reset() {
        noTenant = new State();
        tenants = new ConcurrentHashMap<>();
    }

    /** A block {@code [start, last]}: claims past the size only grow the offset. */
    private static final class Block {

        static final Block EMPTY = new Block(0, -1, 0);

        final long start;
        final long size;
        final AtomicLong claims = new AtomicLong();
        /** The offset at which the fetch ahead starts (a quarter left), or -1 when the block is too small. */
        final long triggerAt;

        Block(long start, long last, int lowWatermark) {
            this.start = start;
            this.size = last - start + 1;
            this.triggerAt = size > lowWatermark && lowWatermark > 0 ? size - lowWatermark - 1 : -1;
        }
    }

    private final class State {

        volatile Block current = Block.EMPTY;
        final ConcurrentLinkedQueue<Block> ready = new ConcurrentLinkedQueue<>();
        final ReentrantLock refillLock = new ReentrantLock();
        /** The last database value fetched, or Long.MIN_VALUE before the first. */
        final AtomicLong lastValue = new AtomicLong(Long.MIN_VALUE);
        volatile @Nullable IntegralDataTypeHolder lastSourceValue;

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
                            // A second fetch catches a wrong INCREMENT BY before any value could collide.
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
