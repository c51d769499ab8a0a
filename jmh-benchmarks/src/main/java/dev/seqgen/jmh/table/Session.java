package dev.seqgen.jmh.table;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jmh.Pause;
import dev.seqgen.spi.SequenceStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/** One run's database, the settings every mode shares, and the round trips measured before the first mode. */
final class Session implements AutoCloseable {

    /** Reservations timed, one after another, to measure a round trip; the median is kept. */
    private static final int PROBES = 21;

    /** So long that a wait in a crowded run is measured, never cut short as an error. */
    private static final Duration ACQUIRE_TIMEOUT = Duration.ofMinutes(2);

    private final TableOptions options;
    private final Backend backend;
    private final long appNanos;
    private final long storeLatencyNanos;
    private final long rowRoundTripNanos;
    private final long sequenceCallNanos;

    Session(TableOptions options) {
        this.options = options;
        this.backend = options.database().open(options);
        this.appNanos = options.appLatency().toNanos();
        this.storeLatencyNanos = options.storeLatency().toNanos();
        this.rowRoundTripNanos = probeRowRoundTrip();
        this.sequenceCallNanos = options.modes().stream().anyMatch(Mode::usesNativeSequence) ? probeSequenceCall() : 0;
    }

    private long probeRowRoundTrip() {
        SequenceStore store = backend.store();
        String probe = "strategy_table_probe";
        store.createSequence(probe, 1);
        return medianNanos(() -> store.reserve(probe, 1, SequenceSettings.LARGEST_MAX_VALUE).first());
    }

    private long probeSequenceCall() {
        return medianNanos(backend.nativeSequence(1));
    }

    private static long medianNanos(LongSupplier operation) {
        long[] nanos = new long[PROBES];
        for (int i = 0; i < PROBES; i++) {
            long start = System.nanoTime();
            operation.getAsLong();
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return nanos[PROBES / 2];
    }

    /** A registry over the store whose sequences all use {@code strategy} and the run's block settings. */
    SequenceRegistry registry(Strategy strategy) {
        return registry(strategy, backend.store());
    }

    /** As {@link #registry(Strategy)}, over the native-sequence store. */
    SequenceRegistry nativeRegistry(Strategy strategy) {
        return registry(strategy, backend.nativeStore());
    }

    /** Registries that act as separate JVMs ({@code --registries}). */
    int registries() {
        return options.registries();
    }

    private SequenceRegistry registry(Strategy strategy, SequenceStore store) {
        return SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder()
                        .strategy(strategy)
                        .blockSize(options.blockSize())
                        .lowWatermark(options.effectiveLowWatermark())
                        .adaptiveMaxBlockSize(Math.max(options.blockSize(), 100_000))
                        .acquireTimeout(ACQUIRE_TIMEOUT)
                        .build())
                .build();
    }

    /** One simulated application transaction that takes its value inside it (SYNC). */
    long inTransaction(ToLongFunction<Object> takeValue) throws Exception {
        return backend.inTransaction(takeValue, appNanos);
    }

    /**
     * One simulated application transaction that does its work first and takes its value last, immediately
     * before the commit (SYNC at flush).
     */
    long inTransactionValueLast(ToLongFunction<Object> takeValue) throws Exception {
        return backend.inTransaction(transaction -> {
            Pause.nanos(appNanos);
            return takeValue.applyAsLong(transaction);
        }, 0);
    }

    /** The simulated application transaction of the modes that take their value before it. */
    void applicationTransaction() {
        Pause.nanos(appNanos);
    }

    /** The database's own sequence stepping by {@code increment}. */
    LongSupplier nativeSequence(int increment) {
        return backend.nativeSequence(increment);
    }

    long appNanos() {
        return appNanos;
    }

    /** The median time of one reservation on the sequence table (connection, update, commit). */
    long rowRoundTripNanos() {
        return rowRoundTripNanos;
    }

    /** The median time of one native sequence call, or 0 when no mode uses one. */
    long sequenceCallNanos() {
        return sequenceCallNanos;
    }

    /** Whether the bounds rest on the injected latency (a hard floor) rather than on measured round trips. */
    boolean boundsOnInjectedLatency() {
        return storeLatencyNanos > 0;
    }

    /**
     * The {@code store} of the bounds: the injected latency, which every commit on the row waits with the row
     * locked, so no mode can beat a bound made of it; without one, the measured reservation, which is only
     * an estimate of how long the database keeps the row locked (the bound may then be beaten a little).
     */
    long storeForBounds() {
        return boundsOnInjectedLatency() ? storeLatencyNanos : rowRoundTripNanos;
    }

    /** The {@code call} of the bounds, chosen as {@link #storeForBounds()} is. */
    long callForBounds() {
        return boundsOnInjectedLatency() ? storeLatencyNanos : sequenceCallNanos;
    }

    /** Values each application transaction of the SYNC modes takes ({@code --entities-per-tx}). */
    int entitiesPerTransaction() {
        return options.entitiesPerTransaction();
    }

    /** Every n-th transaction of a gapless mode rolls back after taking its values; 0 for none. */
    int rollbackEvery() {
        return options.rollbackEvery();
    }

    int blockSize() {
        return options.blockSize();
    }

    String storeName() {
        return backend.store().name();
    }

    @Override
    public void close() {
        backend.close();
    }
}
