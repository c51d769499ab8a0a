package dev.seqgen.modelcheck;

import dev.seqgen.testing.Slow;
import dev.seqgen.hibernate.SeqgenPooledOptimizer;
import org.hibernate.HibernateException;
import org.hibernate.id.IdentifierGeneratorHelper;
import org.hibernate.id.IntegralDataTypeHolder;
import org.hibernate.id.enhanced.AccessCallback;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Model checking (Lincheck) of {@link SeqgenPooledOptimizer#generate}: two optimizers (two JVMs) over one
 * database sequence {@code INCREMENT BY 4} whose last value is {@code Long.MAX_VALUE}, with every third fetch
 * failing. In every interleaving each id is handed out at most once, and none lies outside the sequence's
 * blocks (no wrap past {@code Long.MAX_VALUE}); exhaustion is an error.
 */
@Slow
class PooledOptimizerModelCheckTest {

    private static final int STEP = 4;
    /** The sequence's values are LAST - 12, LAST - 8, LAST - 4 and LAST: 16 ids in all. */
    private static final long LAST = Long.MAX_VALUE;
    private static final long LOWEST_ID = LAST - 12 - STEP + 1;

    @Test
    void twoOptimizersAtTheTopOfABigintSequenceHandOutEveryIdOnce() {
        LinChecker.check(TwoNodes.class, StrategyModelCheckTest.options());
    }

    @Test
    void aSequenceWhoseNextvalIsNotAtomicIsCaughtHandingOutAnIdTwice() {
        assertThatThrownBy(() -> LinChecker.check(PlantedTwoNodes.class, StrategyModelCheckTest.options()
                .iterations(Math.max(30, StrategyModelCheckTest.ITERATIONS)).actorsBefore(0)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Invalid execution results");
    }

    /**
     * A database sequence whose every third fetch fails; {@code atomic = false} plants a read-then-write race in
     * {@code nextval} instead (and no failures, which would hide some of its duplicates).
     */
    static final class DatabaseSequence {

        private final AtomicLong next = new AtomicLong(LAST - 12);
        private final AtomicInteger fetches = new AtomicInteger();
        private final boolean atomic;

        DatabaseSequence(boolean atomic) {
            this.atomic = atomic;
        }

        long nextval() {
            if (atomic && fetches.incrementAndGet() % 3 == 0) {
                throw new HibernateException("injected failure of the fetch");
            }
            long value;
            if (atomic) {
                value = next.getAndUpdate(v -> v == Long.MIN_VALUE || v > LAST - STEP ? Long.MIN_VALUE : v + STEP);
            } else {
                value = next.get();
                next.set(value == Long.MIN_VALUE || value > LAST - STEP ? Long.MIN_VALUE : value + STEP);
            }
            if (value == Long.MIN_VALUE) {
                throw new HibernateException("sequence exhausted: nextval reached its MAXVALUE");
            }
            return value;
        }
    }

    /** The operations: an id from either node; true unless the id was handed out before. */
    public abstract static class Nodes {

        private final DatabaseSequence sequence;
        private final SeqgenPooledOptimizer a = new SeqgenPooledOptimizer(Long.class, STEP);
        private final SeqgenPooledOptimizer b = new SeqgenPooledOptimizer(Long.class, STEP);
        private final Set<Long> handedOut = ConcurrentHashMap.newKeySet();

        Nodes(boolean atomic) {
            this.sequence = new DatabaseSequence(atomic);
        }

        @Operation
        public boolean idOnA() {
            return generate(a);
        }

        @Operation
        public boolean idOnB() {
            return generate(b);
        }

        private boolean generate(SeqgenPooledOptimizer optimizer) {
            long id;
            try {
                id = (Long) optimizer.generate(new AccessCallback() {
                    @Override
                    public IntegralDataTypeHolder getNextValue() {
                        return IdentifierGeneratorHelper.getIntegralDataTypeHolder(Long.class)
                                .initialize(sequence.nextval());
                    }

                    @Override
                    public String getTenantIdentifier() {
                        return null;
                    }
                });
            } catch (HibernateException failedOrExhausted) {
                return true;
            }
            if (id < LOWEST_ID) {
                throw new AssertionError("id " + id + " lies below every block of the sequence (a wrap?)");
            }
            return handedOut.add(id);
        }
    }

    /** Two nodes on an atomic sequence. */
    public static class TwoNodes extends Nodes {
        public TwoNodes() {
            super(true);
        }
    }

    /** Two nodes on the planted non-atomic sequence. */
    public static class PlantedTwoNodes extends Nodes {
        public PlantedTwoNodes() {
            super(false);
        }
    }
}
