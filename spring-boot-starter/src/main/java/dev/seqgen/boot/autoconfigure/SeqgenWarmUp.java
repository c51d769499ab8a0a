package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceUnavailableException;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.Ordered;

/**
 * Takes the first blocks of the application's sequences before Spring Boot reports the application ready, so that
 * no request meets an instance with nothing in hand.
 *
 * <p>Ordered last among the application runners (Boot publishes {@code ACCEPTING_TRAFFIC} after the last), so that
 * the application's runners have inserted their rows first. It warms up, in this order: the mapped sequences not open
 * yet, through Hibernate (rows adopted first); the configured and open sequences
 * ({@link SequenceRegistry#warmUp(Duration)}); the series under {@code seqgen.series.warm-up}, through Hibernate for
 * the entities' series, else {@link SequenceRegistry#warmUpSeries(String, java.util.Collection, Duration)}.
 *
 * <p>All within {@code seqgen.warm-up.timeout}, a start-up limit rather than the callers' acquire timeout (a fleet's
 * first reservations queue at the row). An instance without its first blocks by then fails to start, naming the
 * sequence (a {@link SeqgenSetupException}), instead of reporting itself ready with nothing in hand: see
 * docs/spring-boot.md, "Warm-up and readiness", and docs/operations.md.
 */
final class SeqgenWarmUp implements ApplicationRunner, Ordered {

    private static final System.Logger LOG = System.getLogger(SeqgenWarmUp.class.getName());

    /** The property of the start-up limit. */
    static final String TIMEOUT_PROPERTY = "seqgen.warm-up.timeout";

    /** The property of the series to warm up, followed by a sequence name. */
    static final String SERIES_PROPERTY = "seqgen.series.warm-up";

    /** Opens the sequences, and named series, of the entity mappings, as their first values would. */
    interface MappedSequences {

        /**
         * Opens the sequences of the entity mappings not opened yet and takes their first blocks.
         *
         * @param timeout the longest the first blocks are waited for, all together
         * @throws SequenceUnavailableException naming a sequence whose first block did not come in time
         */
        void warmUp(Duration timeout);

        /**
         * Opens named series of a sequence the entity mappings number in series, after reading their tables, and
         * takes their first blocks.
         *
         * @param name the sequence name
         * @param keys the series keys
         * @param timeout the longest the first blocks are waited for, all together
         * @return whether the mappings number the sequence (false: nothing was opened)
         * @throws SequenceConfigurationException naming the property and the key, if a key is not one of the
         *     sequence's series
         * @throws SequenceUnavailableException naming a series whose first block did not come in time
         */
        boolean warmUpSeries(String name, List<String> keys, Duration timeout);
    }

    private final ObjectProvider<SequenceRegistry> registry;
    private final ObjectProvider<MappedSequences> mapped;
    private final Duration timeout;
    private final LongSupplier nanoTime;
    /** The series to warm up, by sequence ({@code seqgen.series.warm-up}). */
    private Map<String, List<String>> series = Map.of();

    SeqgenWarmUp(ObjectProvider<SequenceRegistry> registry, ObjectProvider<MappedSequences> mapped, Duration timeout) {
        this(registry, mapped, timeout, System::nanoTime);
    }

    SeqgenWarmUp(ObjectProvider<SequenceRegistry> registry, ObjectProvider<MappedSequences> mapped, Duration timeout,
            LongSupplier nanoTime) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new SequenceConfigurationException(TIMEOUT_PROPERTY, timeout, "a positive duration");
        }
        this.registry = registry;
        this.mapped = mapped;
        this.timeout = timeout;
        this.nanoTime = nanoTime;
    }

    /**
     * Warms up the sequences of the registry, if seqgen has one (it backs off without a store), within the start-up
     * limit.
     *
     * @throws SeqgenSetupException naming a sequence whose first block is not in hand within the limit
     */
    @Override
    public void run(ApplicationArguments args) {
        registry.ifAvailable(available -> {
            long deadline = nanoTime.getAsLong() + timeout.toNanos();
            try {
                mapped.orderedStream().forEach(sequences -> sequences.warmUp(left(deadline)));
                available.warmUp(left(deadline));
                series.forEach((name, keys) -> warmUpSeries(available, name, keys, deadline));
            } catch (SequenceUnavailableException e) {
                SeqgenSetupException notReady = notReady(e);
                LOG.log(System.Logger.Level.ERROR, notReady.getMessage());
                throw notReady;
            }
        });
    }

    /**
     * Warms up the named series of one sequence: through the entity mappings that number it, which read their tables
     * first, else through the registry, if it knows the sequence (configured, declared by a framework, or open).
     *
     * @throws SequenceConfigurationException naming the property if no mapping numbers the sequence and the registry
     *     does not know it (a misspelt name would otherwise make series of a sequence nobody numbers), or a key is not
     *     valid
     */
    private void warmUpSeries(SequenceRegistry available, String name, List<String> keys, long deadline) {
        boolean byEntities = false;
        for (MappedSequences sequences : mapped.orderedStream().toList()) {
            byEntities |= sequences.warmUpSeries(name, keys, left(deadline));
        }
        if (byEntities) {
            return;
        }
        String property = SERIES_PROPERTY + "." + name;
        if (!available.knows(name)) {
            throw new SequenceConfigurationException(property, String.join(",", keys), "keys of a sequence the"
                    + " application numbers in series: one its entities number, or one configured under"
                    + " seqgen.sequences (sequence '" + name + "' is neither)");
        }
        try {
            available.warmUpSeries(name, keys, left(deadline));
        } catch (SequenceConfigurationException e) {
            throw SeqgenSettings.invalid(property, e.value(), e.allowed() + " (" + e.setting() + ")", e);
        }
    }

    /**
     * Adds series to warm up after the sequences, within the same limit ({@code seqgen.series.warm-up}).
     *
     * @param series the series keys, by sequence name
     * @return this warm-up
     */
    SeqgenWarmUp series(Map<String, List<String>> series) {
        this.series = Map.copyOf(series);
        return this;
    }

    /** The failed start-up: the sequence, the limit, the reason, and what to change. */
    private SeqgenSetupException notReady(SequenceUnavailableException late) {
        return new SeqgenSetupException("seqgen: the application is not ready: a first block was not in hand within "
                + TIMEOUT_PROPERTY + " (" + timeout + "), so the application does not report itself ready and stops: "
                + late.getMessage(),
                "A row serves one reservation at a time: a fleet of N instances that starts at once waits about"
                        + " N x the row's transaction time for its first blocks where the store shows the queue at the"
                        + " row (PostgreSQL), about 2 x N x elsewhere."
                        + " Raise " + TIMEOUT_PROPERTY + " above that, start the fleet in waves, or, if the store"
                        + " failed, see its error above.",
                late);
    }

    private Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - nanoTime.getAsLong()));
    }

    /** Last among the runners: after the application's own (see the class comment). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
