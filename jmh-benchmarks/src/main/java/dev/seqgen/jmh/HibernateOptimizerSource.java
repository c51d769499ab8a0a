package dev.seqgen.jmh;

import java.util.function.LongSupplier;
import org.hibernate.id.IdentifierGeneratorHelper;
import org.hibernate.id.IntegralDataTypeHolder;
import org.hibernate.id.enhanced.AccessCallback;
import org.hibernate.id.enhanced.Optimizer;
import org.hibernate.id.enhanced.OptimizerFactory;
import org.hibernate.id.enhanced.StandardOptimizerDescriptor;

/**
 * One of Hibernate's optimizers, built the way Hibernate builds it for {@code @SequenceGenerator(allocationSize
 * = incrementSize)}, over a database sequence that starts at 1 and steps by the increment size. Hibernate
 * keeps one optimizer per generator per session factory, shared by all sessions, so one instance is shared by
 * all benchmark threads too.
 */
public final class HibernateOptimizerSource implements IdSource, AccessCallback {

    private final Optimizer optimizer;
    private final LongSupplier databaseSequence;

    /**
     * Creates the optimizer.
     *
     * @param optimizer which optimizer: {@code POOLED}, {@code POOLED_LO} or {@code POOLED_LOTL}
     * @param incrementSize the allocation size, which is also the step of the database sequence
     * @param databaseSequence returns the database sequence's next value: 1, then 1 + incrementSize, and so on
     */
    public HibernateOptimizerSource(StandardOptimizerDescriptor optimizer, int incrementSize,
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
