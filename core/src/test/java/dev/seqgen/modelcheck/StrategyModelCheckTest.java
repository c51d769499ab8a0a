package dev.seqgen.modelcheck;

import java.time.Duration;

import dev.seqgen.testing.Slow;
import dev.seqgen.Strategy;
import dev.seqgen.testing.InMemorySequenceStore;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Model checking (Lincheck) of {@code next()}, {@code nextValues(n)}, {@code close()} and a restart (close, then a
 * new generator in its place) of BATCH, ASYNC_BATCH and ASYNC: two generators on one row (two JVMs), blocks of 2
 * with the refill point at 1 value left, 12 values below the maximum, and a store that fails transiently and loses
 * acknowledgements, of give-backs, of ranges kept for the fleet and of kept ranges taken. The checker runs
 * many scenarios of three threads and explores their interleavings; every interleaving must hand out each
 * value at most once and leave the row above every value handed out.
 *
 * <p>The short configuration (3 scenarios × 100 interleavings per strategy) runs with the suite; the long one
 * is {@code ./mvnw -pl core test -Dtest='StrategyModelCheckTest,PooledOptimizerModelCheckTest'
 * -Dseqgen.modelcheck.iterations=20 -Dseqgen.modelcheck.invocations=1000} (docs/testing.md gives its time).
 */
@Slow
class StrategyModelCheckTest {

    static final int ITERATIONS = Integer.getInteger("seqgen.modelcheck.iterations", 3);
    private static final int INVOCATIONS = Integer.getInteger("seqgen.modelcheck.invocations", 100);

    /** Held so that the level set below stays (JUL keeps loggers weakly). */
    private static final Logger SEQGEN = Logger.getLogger("dev.seqgen");
    private static Level previousLevel;

    /**
     * No logging while the checker runs: every log call would be thousands of interleaving points in the
     * formatter, which the checker reports as a hung execution.
     */
    @BeforeAll
    static void quiet() {
        previousLevel = SEQGEN.getLevel();
        SEQGEN.setLevel(Level.OFF);
    }

    @AfterAll
    static void restoreLogging() {
        SEQGEN.setLevel(previousLevel);
    }

    /**
     * The checker's options. Its wall-clock limit per interleaving (10 s by default) is raised to 2 minutes: the
     * checker reports an interleaving that runs longer as "the execution has hung", and on a loaded machine one
     * did (CI beside a CPU hog, a thread merely runnable, not blocked). A real hang is a live lock, which the
     * checker finds by counting repeated steps, not by the clock; the clock only stops a run that would never end.
     */
    static ModelCheckingOptions options() {
        ModelCheckingOptions options = new ModelCheckingOptions().iterations(ITERATIONS)
                .invocationsPerIteration(INVOCATIONS).threads(3).actorsPerThread(3).actorsBefore(1).actorsAfter(1)
                .minimizeFailedScenario(false);
        // Kotlin-internal in Lincheck 2.39 (hence the name), the only way to set the limit.
        return options.invocationTimeout$lincheck(Duration.ofMinutes(2).toMillis());
    }

    @Test
    void batchHandsOutEveryValueOnce() {
        LinChecker.check(Batch.class, options());
    }

    @Test
    void asyncBatchHandsOutEveryValueOnce() {
        LinChecker.check(AsyncBatch.class, options());
    }

    @Test
    void asyncHandsOutEveryValueOnce() {
        LinChecker.check(Async.class, options());
    }

    @Test
    void aStoreThatReservesWithoutALockIsCaughtHandingOutAValueTwice() {
        assertThatThrownBy(() -> LinChecker.check(Planted.class, options().iterations(Math.max(ITERATIONS, 10))))
                // The checker replays a failing interleaving to trace it; a replay that goes another way (the racy
                // store races differently) is reported as non-determinism, an IllegalStateException that still
                // carries the invalid results found.
                .isInstanceOfAny(AssertionError.class, IllegalStateException.class)
                // A value handed out twice, or the validation after the scenario finding the row (or a kept range)
                // over a value handed out: the checker reports whichever interleaving it meets first.
                .satisfiesAnyOf(e -> assertThat(e).hasMessageContaining("Invalid execution results"),
                        e -> assertThat(e).hasMessageContaining("Validation function rowAboveEveryValueHandedOut"
                                + " has failed"));
    }

    /** The calls that take values, on either generator, over the model built by a subclass. */
    @Param(name = "count", gen = IntGen.class, conf = "1:2")
    public abstract static class Calls {

        final StrategyModel model;

        Calls(StrategyModel model) {
            this.model = model;
        }

        @Operation
        public boolean nextOnA() {
            return model.next(true);
        }

        @Operation
        public boolean nextOnB() {
            return model.next(false);
        }

        @Operation
        public boolean nextValuesOnA(@Param(name = "count") int count) {
            return model.nextValues(true, count);
        }

        @Operation
        public boolean nextValuesOnB(@Param(name = "count") int count) {
            return model.nextValues(false, count);
        }

        @Validate
        public void rowAboveEveryValueHandedOut() {
            model.validate();
        }
    }

    /** The operations every scenario of a strategy draws from: the calls, a stop and a restart. */
    public abstract static class Scenario extends Calls {

        Scenario(StrategyModel model) {
            super(model);
        }

        @Operation
        public boolean closeA() {
            return model.close(true);
        }

        @Operation
        public boolean restartA() {
            return model.restartFirst();
        }
    }

    /** BATCH over a store that fails and loses acknowledgements. */
    public static class Batch extends Scenario {
        public Batch() {
            super(new StrategyModel(new FaultyStore(new InMemorySequenceStore()), Strategy.BATCH));
        }
    }

    /** ASYNC_BATCH over a store that fails and loses acknowledgements. */
    public static class AsyncBatch extends Scenario {
        public AsyncBatch() {
            super(new StrategyModel(new FaultyStore(new InMemorySequenceStore()), Strategy.ASYNC_BATCH));
        }
    }

    /** ASYNC over a store that fails and loses acknowledgements. */
    public static class Async extends Scenario {
        public Async() {
            super(new StrategyModel(new FaultyStore(new InMemorySequenceStore()), Strategy.ASYNC));
        }
    }

    /**
     * BATCH over the planted defect, with the calls that take values only: the defect is in the reservation, so every
     * scenario has two generators reserving, and the checker meets the race in its first scenarios instead of after
     * many that only stop and restart.
     */
    public static class Planted extends Calls {
        public Planted() {
            super(new StrategyModel(new RacyStore(), Strategy.BATCH));
        }
    }
}
