package dev.seqgen;

import java.util.Locale;

/**
 * Where a sequence's values are counted: the {@link Setting#KIND kind} setting. A registry routes each sequence to
 * the store of its kind ({@link SequenceRegistry.Builder#store(dev.seqgen.spi.SequenceStore)}), so one application
 * can keep its ids on database sequences and its invoice numbers gapless on the table.
 */
public enum CounterKind {

    /**
     * A row of seqgen's sequence table (the JDBC table store, the Cloud Spanner store): every strategy, SYNC's
     * gapless values included, and unused values given back at shutdown.
     */
    TABLE,

    /**
     * A database sequence ({@code CREATE SEQUENCE}; the JDBC native-sequence store): no hot row, but its
     * increments cannot be rolled back, so not for SYNC; see {@code docs/native-sequences.md}.
     */
    NATIVE_SEQUENCE;

    /** {@return the name as configuration spells it: {@code table}, {@code native-sequence}} */
    public String externalName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
