package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceUnavailableException;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.Ordered;

/**
 * Takes the first blocks of the application's sequences before Spring Boot reports the application ready: the mapped
 * sequences through Hibernate, then the registry's, then the series of {@code seqgen.series.warm-up}, all within
 * {@code seqgen.warm-up.timeout}, else the start-up fails naming the sequence. The last runner, so that the
 * application's runners have inserted their rows first. See docs/design.md#the-first-block-and-the-start-up-queue.
 */
final class SeqgenWarmUp implements ApplicationRunner, Ordered {

    private static final System.Logger LOG = System.getLogger(SeqgenWarmUp.class.getName());

    private static final String TIMEOUT_PROPERTY = "seqgen.warm-up.timeout";

    /** Opens the sequences, and named series, of the entity mappings, as their first values would. */
    interface MappedSequences {

        /** Opens the mappings' sequences not open yet; throws SequenceUnavailableException past the timeout. */
        void warmUp(Duration timeout);

        /** Opens the named series of a sequence the mappings number in series; false when they do not number it. */
        boolean warmUpSeries(String name, List<String> keys, Duration timeout);
    }

    private final ObjectProvider<SequenceRegistry> registry;
    private final ObjectProvider<MappedSequences> mapped;
    private final Duration timeout;
    private Map<String, List<String>> series = Map.of();

    SeqgenWarmUp(ObjectProvider<SequenceRegistry> registry, ObjectProvider<MappedSequences> mapped, Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new SequenceConfigurationException(TIMEOUT_PROPERTY, timeout, "a positive duration");
        }
        this.registry = registry;
        this.mapped = mapped;
        this.timeout = timeout;
    }

    /** Warms up the registry's sequences, if there is a registry; throws SeqgenSetupException past the limit. */
    @Override
    public void run(ApplicationArguments args) {
        registry.ifAvailable(available -> {
            long deadline = System.nanoTime() + timeout.toNanos();
            try {
                mapped.orderedStream().forEach(sequences -> sequences.warmUp(left(deadline)));
                available.warmUp(left(deadline));
                series.forEach((name, keys) -> warmUpSeries(available, name, keys, deadline));
            } catch (SequenceUnavailableException late) {
                SeqgenSetupException notReady = new SeqgenSetupException("seqgen: the application is not ready: a"
                        + " first block was not in hand within " + TIMEOUT_PROPERTY + " (" + timeout + "), so the"
                        + " application does not report itself ready and stops: " + late.getMessage(),
                        "A row serves one reservation at a time: a fleet of N instances that starts at once waits"
                                + " about N x the row's transaction time for its first blocks where the store shows"
                                + " the queue at the row (PostgreSQL), about 2 x N x elsewhere. Raise "
                                + TIMEOUT_PROPERTY + " above that, start the fleet in waves, or, if the store failed,"
                                + " see its error above.", late);
                LOG.log(System.Logger.Level.ERROR, notReady.getMessage());
                throw notReady;
            }
        });
    }

    /** Through the mappings that number the sequence, else the registry if it knows it: a misspelt name fails. */
    private void warmUpSeries(SequenceRegistry available, String name, List<String> keys, long deadline) {
        if (mapped.orderedStream().map(sequences -> sequences.warmUpSeries(name, keys, left(deadline))).toList()
                .contains(true)) {
            return;
        }
        String property = "seqgen.series.warm-up." + name;
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

    /** Adds the series keys, by sequence name, to warm up after the sequences within the same limit. */
    SeqgenWarmUp series(Map<String, List<String>> series) {
        this.series = Map.copyOf(series);
        return this;
    }

    private Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
