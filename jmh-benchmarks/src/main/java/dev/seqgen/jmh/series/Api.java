package dev.seqgen.jmh.series;

/** How a benchmark transaction takes its gapless number. */
public enum Api {

    /**
     * Hibernate: a session of the tenant persists one invoice and commits; {@code @SeqgenNumber} increments the
     * series' row at the flush, on the session's connection.
     */
    HIBERNATE,

    /**
     * seqgen's core API in a plain JDBC transaction: {@code SequenceRegistry.series(name, tenant)} (or the shared
     * sequence) {@code .nextInTransaction(connection)}, then the INSERT, then the commit. The same statements without
     * Hibernate's work, to tell what Hibernate costs from what the row lock costs.
     */
    JDBC
}
