package dev.seqgen.jmh.table;

import dev.seqgen.spi.SequenceStore;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/** Where one run's sequences live: seqgen's store, the caller's transaction, and native sequences if any. */
interface Backend extends AutoCloseable {

    /** seqgen's store on this database. */
    SequenceStore store();

    /**
     * Runs one simulated application transaction that takes its value inside it, as SYNC needs: the value,
     * then {@code appNanos} of work, then the commit, while the sequence row stays locked.
     *
     * @param takeValue takes the value within the transaction it is given
     */
    long inTransaction(ToLongFunction<Object> takeValue, long appNanos) throws Exception;

    /**
     * seqgen's native-sequence store on this database, built on first use.
     *
     * @throws UnsupportedOperationException if the database has no sequences that serve contiguous blocks
     */
    default SequenceStore nativeStore() {
        throw new UnsupportedOperationException("no native-sequence store on this database");
    }

    /** Whether the database has sequences of its own for Hibernate and the native-sequence mode. */
    boolean hasNativeSequences();

    /**
     * The database's own sequence that starts at 1 and steps by {@code increment}, created if missing.
     *
     * @throws UnsupportedOperationException if the database has none
     */
    LongSupplier nativeSequence(int increment);

    @Override
    void close();
}
