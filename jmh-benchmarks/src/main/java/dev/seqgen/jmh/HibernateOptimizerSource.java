package dev.seqgen.jmh;

import java.util.function.LongSupplier;
import org.hibernate.id.IdentifierGeneratorHelper;
import org.hibernate.id.IntegralDataTypeHolder;
import org.hibernate.id.enhanced.AccessCallback;
import org.hibernate.id.enhanced.Optimizer;
import org.hibernate.id.enhanced.OptimizerDescriptor;
import org.hibernate.id.enhanced.OptimizerFactory;

/**
 * A Hibernate optimizer, built by Hibernate's optimizer factory as for {@code @SequenceGenerator(allocationSize
 * = incrementSize)}, over a database sequence that starts at 1 and steps by the increment size: one of
 * Hibernate's own, or seqgen's drop-in {@code SeqgenPooledOptimizer} named by class as
 * {@code hibernate.id.optimizer.pooled.preferred} names it. Hibernate keeps one optimizer per generator per
 * session factory, shared by all sessions, so one instance is shared by all benchmark threads too.
 */
public final class HibernateOptimizerSource implements IdSource, AccessCallback {

    private final Optimizer optimizer;
    private final LongSupplier databaseSequence;

    /**
     * Creates the optimizer.
     *
     * @param optimizer which optimizer, such as {@code StandardOptimizerDescriptor.POOLED}
     * @param incrementSize the allocation size, which is also the step of the database sequence
     * @param databaseSequence returns the database sequence's next value: 1, then 1 + incrementSize, and so on
     */
    public HibernateOptimizerSource(OptimizerDescriptor optimizer, int incrementSize,
            LongSupplier databaseSequence) {
        this.optimizer = OptimizerFactory.buildOptimizer(optimizer, Long.class, incrementSize, 1);
        this.databaseSequence = databaseSequence;
    }

    @Override
    public long next() {
        return ((Number) optimizer.generate(this)).longValue();
    }

    @Override
    public IntegralDataTypeHolder getNextValue() {
        return IdentifierGeneratorHelper.getIntegralDataTypeHolder(Long.class).initialize(databaseSequence.getAsLong());
    }

    @Override
    public String getTenantIdentifier() {
        return null;
    }
}
