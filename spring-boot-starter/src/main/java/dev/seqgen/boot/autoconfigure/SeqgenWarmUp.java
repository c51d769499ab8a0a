package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceUnavailableException;

import java.time.Duration;
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
 *       ({@link SequenceRegistry#warmUp()}).</li>
 * </ol>
 * Each wait is bounded by the acquire timeout (of the defaults for the mapped sequences, the longest configured
 * for the others). A first block that does not come in time is warned of and the start-up goes on: the reservation
 * goes on in the background, and a caller that meets it waits within its acquire timeout, as for any refill. A
 * fleet starting at once on one row is served one first reservation at a time (about N x the row's transaction
 * time for N instances); raise {@code seqgen.defaults.acquire-timeout} above that to keep every instance out of
 * traffic until its block is in hand.
 */
final class SeqgenWarmUp implements ApplicationRunner, Ordered {

    private static final System.Logger LOG = System.getLogger(SeqgenWarmUp.class.getName());

    /** Opens the sequences of the entity mappings not opened yet and takes their first blocks. */
    @FunctionalInterface
    interface MappedSequences {

        /**
         * @param timeout the longest each first block is waited for
         * @throws SequenceUnavailableException naming a sequence whose first block did not come in time
         */
        void warmUp(Duration timeout);
    }

    private final ObjectProvider<SequenceRegistry> registry;
    private final ObjectProvider<MappedSequences> mapped;

    SeqgenWarmUp(ObjectProvider<SequenceRegistry> registry, ObjectProvider<MappedSequences> mapped) {
        this.registry = registry;
        this.mapped = mapped;
    }

    /** Warms up the sequences of the registry, if seqgen has one (it backs off without a store). */
    @Override
    public void run(ApplicationArguments args) {
        registry.ifAvailable(available -> {
            mapped.orderedStream().forEach(sequences -> warmUp(() -> sequences.warmUp(available.defaults()
                    .acquireTimeout())));
            warmUp(available::warmUp);
        });
    }

    private static void warmUp(Runnable warmUp) {
        try {
            warmUp.run();
        } catch (SequenceUnavailableException e) {
            LOG.log(System.Logger.Level.WARNING, "seqgen: the application reports itself ready without a first block"
                    + " in hand; its first callers wait for it within the acquire timeout: " + e.getMessage());
        }
    }

    /** Last among the runners: after the application's own (see the class comment). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
