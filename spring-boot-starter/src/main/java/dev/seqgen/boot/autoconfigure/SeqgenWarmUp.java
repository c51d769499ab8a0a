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
 * <p>Spring Boot calls the application runners once the context has refreshed and publishes
 * {@code ReadinessState.ACCEPTING_TRAFFIC} only after the last of them has returned; a readiness probe (Kubernetes',
 * or the load balancer's reading {@code /actuator/health/readiness}) keeps traffic away until then. This runner is
 * ordered last, so that the application's own runners have inserted whatever rows they insert before the mapped
 * sequences adopt their tables' ids. It warms up, in this order:
 * <ol>
 *   <li>the sequences of the entity mappings that no value has opened yet, through Hibernate, which moves each
 *       row above the ids its tables hold first, as at a first value;</li>
 *   <li>the sequences configured under {@code seqgen.sequences} and every sequence open by then
 *       ({@link SequenceRegistry#warmUp(Duration)});</li>
 *   <li>the series named under {@code seqgen.series.warm-up}: through Hibernate for a sequence the entities number
 *       in series, which reads the series' rows in their tables first (through each tenant's own connection where
 *       tenants have schemas of their own), as at a first value; else through the registry
 *       ({@link SequenceRegistry#warmUpSeries(String, java.util.Collection, Duration)}).</li>
 * </ol>
 *
 * <pre>
 * The start-up limit
 *
 * Both steps together wait at most seqgen.warm-up.timeout (60 s by default), a limit of the start-up's own and not
 * the callers' acquire timeout: a fleet that starts at once is served one reservation at a time, and an async-batch
 * sequence takes its second block (and, when two do not last the queue its reservations revealed, a third) before
 * the warm-up returns (RefillControl, "The first block and the start-up queue"), about 2 x N x the row's transaction
 * time for N instances (20 s for 1,000 instances on a 10 ms row), far longer than a caller should wait for a value.
 * Spring Boot's liveness state is CORRECT before the runners run, so a liveness probe does not restart an instance
 * that waits.
 *
 * An instance whose first blocks are not in hand by then fails to start, with the sequence and the reason (a
 * SeqgenSetupException, which Boot's failure analysis reports): it never reports itself ready without a block. Not
 * a published ReadinessState.REFUSING_TRAFFIC: Spring Boot publishes ACCEPTING_TRAFFIC itself as soon as the runners
 * have returned (EventPublishingRunListener.ready), which would overwrite it, and an instance that stays up without
 * ever becoming ready helps nobody. A failed start closes the context, and with it the registry: a block that
 * arrives afterwards is given back to the row or kept for the fleet, as at any stop; the orchestrator starts the
 * instance again (Kubernetes, with its back-off), when the row's queue is shorter.
 * </pre>
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
                        + " 2 x N x the row's transaction time for its first blocks and the ones its queue asks for."
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
