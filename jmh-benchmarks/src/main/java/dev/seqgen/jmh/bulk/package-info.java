/**
 * The JPA bulk-insert benchmark's entities, one per id kind with the same payload columns, and the
 * databases it runs on. See {@link dev.seqgen.jmh.BulkInsertBenchmark}.
 */
package dev.seqgen.jmh.bulk;
