package dev.seqgen;

import java.util.Locale;

/**
 * Where a sequence's values are counted (the {@link Setting#KIND kind} setting); a registry routes each sequence to
 * the store of its kind ({@link SequenceRegistry.Builder#store(dev.seqgen.spi.SequenceStore)}).
 */
public enum CounterKind {

    /** A row of seqgen's sequence table: every strategy, and unused values given back at shutdown. */
    TABLE,

    /** A database sequence ({@code CREATE SEQUENCE}): no hot row, but not for SYNC (see docs/native-sequences.md). */
    NATIVE_SEQUENCE;

    /** {@return the name as configuration spells it: {@code table}, {@code native-sequence}} */
    public String externalName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
