package dev.seqgen.sample.orders;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.Strategy;

import java.util.Locale;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * What the invoice numbers promise, from the strategy the {@code invoices} sequence really has: the entity
 * asks for {@code sync}, but {@code seqgen.sequences.invoices.strategy} can override it (the {@code spanner}
 * profile does, because {@code sync} needs the sequence row in the invoices' own database). Only {@code sync}
 * numbers are gapless; the service says at start-up which it is, and a rolled-back invoice says whether its
 * number was given back.
 */
@Component
class InvoiceNumbering {

    static final String SEQUENCE = "invoices";

    private static final Log log = LogFactory.getLog(InvoiceNumbering.class);

    private final SequenceRegistry registry;

    InvoiceNumbering(SequenceRegistry registry) {
        this.registry = registry;
    }

    /** The strategy of the sequence Hibernate uses for invoices (created when the entities were mapped). */
    Strategy strategy() {
        return registry.sequences().stream().filter(sequence -> sequence.name().equals(SEQUENCE))
                .map(Sequence::strategy).findFirst().orElseGet(() -> registry.settingsFor(SEQUENCE).strategy());
    }

    /** Whether a rolled-back invoice gives its number back, so that committed numbers have no hole. */
    boolean gapless() {
        return strategy() == Strategy.SYNC;
    }

    /** One line that says which it is; a warning when the numbers can have holes. */
    @EventListener(ApplicationReadyEvent.class)
    void report() {
        String store = registry.store().name();
        if (gapless()) {
            log.info("Invoice numbers are gapless: sequence '" + SEQUENCE + "' is sync, taken in the invoice's own"
                    + " transaction on the " + store + " store; a rolled-back invoice gives its number back.");
        } else {
            log.warn("Invoice numbers are NOT gapless: sequence '" + SEQUENCE + "' is "
                    + name(strategy()) + " on the " + store + " store, so each number commits on its own and a"
                    + " failed invoice leaves a hole. They are unique, and increasing in the order invoices"
                    + " ask for them. Gapless numbers need sync, which needs the sequence row in the invoices'"
                    + " own database (the JDBC store).");
        }
    }

    static String name(Strategy strategy) {
        return strategy.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
