package dev.seqgen.hibernate;

import dev.seqgen.testing.Concurrently;
import org.hibernate.HibernateException;
import org.hibernate.id.IdentifierGeneratorHelper;
import org.hibernate.id.IntegralDataTypeHolder;
import org.hibernate.id.enhanced.AccessCallback;
import org.hibernate.id.enhanced.Optimizer;
import org.hibernate.id.enhanced.PooledOptimizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link SeqgenPooledOptimizer} against a database sequence simulated in memory. */
class SeqgenPooledOptimizerTest {

    private static final int ALLOCATION = 50;

    @ParameterizedTest(name = "sequence starting at {0}, initial value {1}")
    @CsvSource({"1, -1", "1, 1", "5, -1", "1001, 1001", "301, 1"})
    void readsTheSequenceAsHibernatesPooledOptimizerDoes(long start, long initialValue) {
        PooledOptimizer pooled = new PooledOptimizer(Long.class, ALLOCATION);
        SeqgenPooledOptimizer seqgen = new SeqgenPooledOptimizer(Long.class, ALLOCATION);
        pooled.injectInitialValue(initialValue);
        seqgen.injectInitialValue(initialValue);
        assertThat(values(seqgen, new FakeSequence(start, ALLOCATION), 1000))
                .containsExactly(values(pooled, new FakeSequence(start, ALLOCATION), 1000));
    }

    @Test
    void eightThreadsGetUniqueValuesFromAboutOneFetchPerBlock() throws Exception {
        SeqgenPooledOptimizer optimizer = new SeqgenPooledOptimizer(Long.class, ALLOCATION);
        FakeSequence sequence = new FakeSequence(1, ALLOCATION);
        long[] values = Concurrently.run(8, thread -> {
            long[] mine = new long[20_000];
            for (int i = 0; i < mine.length; i++) {
                mine[i] = (Long) optimizer.generate(sequence);
            }
            return mine;
        });
        assertThat(Concurrently.assertUnique(values)).hasSize(160_000);
        assertThat(sequence.fetches.get()).as("database round trips")
                .isBetween(160_000 / ALLOCATION, 160_000 / ALLOCATION + 3);
    }

    @Test
    void aSequenceThatStepsByOneIsRejectedBeforeAnyValueIsHandedOut() {
        SeqgenPooledOptimizer optimizer = new SeqgenPooledOptimizer(Long.class, ALLOCATION);
        assertThatThrownBy(() -> optimizer.generate(new FakeSequence(1, 1)))
                .isInstanceOf(HibernateException.class)
                .hasMessageContaining("not a multiple of allocationSize 50");
    }

    @Test
    void intIdsNeverWrap() {
        SeqgenPooledOptimizer optimizer = new SeqgenPooledOptimizer(Integer.class, ALLOCATION);
        FakeSequence sequence = new FakeSequence(Integer.MAX_VALUE - 10, ALLOCATION);
        assertThatThrownBy(() -> {
            for (int i = 0; i < 100; i++) {
                assertThat(optimizer.generate(sequence)).isInstanceOf(Integer.class);
            }
        }).isInstanceOf(ArithmeticException.class);
    }

    private static long[] values(Optimizer optimizer, AccessCallback sequence, int count) {
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            values[i] = ((Number) optimizer.generate(sequence)).longValue();
        }
        return values;
    }

    /** A database sequence: START WITH start INCREMENT BY step. */
    private static final class FakeSequence implements AccessCallback {

        final AtomicLong next;
        final long step;
        final AtomicInteger fetches = new AtomicInteger();

        FakeSequence(long start, long step) {
            this.next = new AtomicLong(start);
            this.step = step;
        }

        @Override
        public IntegralDataTypeHolder getNextValue() {
            fetches.incrementAndGet();
            // The holder type is Hibernate's own (an internal helper), used here only to feed the optimizers.
            return IdentifierGeneratorHelper.getIntegralDataTypeHolder(Long.class)
                    .initialize(next.getAndAdd(step));
        }

        @Override
        public String getTenantIdentifier() {
            return null;
        }
    }
}
