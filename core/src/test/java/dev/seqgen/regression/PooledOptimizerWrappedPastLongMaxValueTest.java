package dev.seqgen.regression;

import dev.seqgen.hibernate.SeqgenPooledOptimizer;
import org.hibernate.id.IdentifierGeneratorHelper;
import org.hibernate.id.IntegralDataTypeHolder;
import org.hibernate.id.enhanced.AccessCallback;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@link SeqgenPooledOptimizer} at the top of a {@code bigint} sequence. Its cursor used to hold values, and
 * every call on an exhausted block added one to it even when the fetch of the next block failed: after a few
 * failed inserts it handed out {@code Long.MIN_VALUE}, {@code MIN_VALUE + 1}, ... without asking the database
 * again, and two JVMs handed out the same negative ids. Exhaustion is now an error every time.
 */
class PooledOptimizerWrappedPastLongMaxValueTest {

    private static final int ALLOCATION = 50;

    @Test
    void twoJvmsAtTheTopOfTheSequenceHandOutEveryValueOnceThenFailEveryTime() {
        // A database sequence INCREMENT BY 50 MAXVALUE Long.MAX_VALUE whose last values are MAX - 100, MAX - 50, MAX.
        LimitedSequence sequence = new LimitedSequence(Long.MAX_VALUE - 2 * ALLOCATION, ALLOCATION);
        List<SeqgenPooledOptimizer> jvms = List.of(new SeqgenPooledOptimizer(Long.class, ALLOCATION),
                new SeqgenPooledOptimizer(Long.class, ALLOCATION));
        Set<Long> issued = new HashSet<>();
        List<Throwable> failures = new ArrayList<>();
        for (int call = 0; call < 1_000; call++) {
            SeqgenPooledOptimizer jvm = jvms.get(call % 2);
            Throwable failure = catchThrowable(() -> {
                long value = (Long) jvm.generate(sequence);
                assertThat(value).as("a value beyond the sequence's maximum or wrapped").isPositive();
                assertThat(issued.add(value)).as("value %d handed out twice", value).isTrue();
            });
            if (failure instanceof AssertionError assertion) {
                throw assertion;
            }
            if (failure != null) {
                failures.add(failure);
            }
        }
        assertThat(issued).isNotEmpty().hasSizeLessThanOrEqualTo(3 * ALLOCATION);
        assertThat(failures).isNotEmpty().allSatisfy(f -> assertThat(f).hasMessageContaining("reached maximum"));
        assertThat(failures).hasSize(1_000 - issued.size());
    }

    @Test
    void aBlockEndingAtLongMaxValueDoesNotOverflow() {
        LimitedSequence sequence = new LimitedSequence(Long.MAX_VALUE, ALLOCATION);
        SeqgenPooledOptimizer optimizer = new SeqgenPooledOptimizer(Long.class, ALLOCATION);
        optimizer.injectInitialValue(1);
        // The first fetch reads MAX, the second (made before anything is handed out) fails: nothing is issued.
        for (int call = 0; call < 5; call++) {
            assertThat(catchThrowable(() -> optimizer.generate(sequence))).hasMessageContaining("reached maximum");
        }
    }

    /** A database sequence that fails, as a real one does, once it would pass {@code Long.MAX_VALUE}. */
    private static final class LimitedSequence implements AccessCallback {

        private long next;
        private final long step;
        private boolean exhausted;

        LimitedSequence(long start, long step) {
            this.next = start;
            this.step = step;
        }

        @Override
        public IntegralDataTypeHolder getNextValue() {
            if (exhausted) {
                throw new IllegalStateException("nextval: reached maximum value of sequence (9223372036854775807)");
            }
            long value = next;
            if (value > Long.MAX_VALUE - step) {
                exhausted = true;
            } else {
                next = value + step;
            }
            return IdentifierGeneratorHelper.getIntegralDataTypeHolder(Long.class).initialize(value);
        }

        @Override
        public String getTenantIdentifier() {
            return null;
        }
    }
}
