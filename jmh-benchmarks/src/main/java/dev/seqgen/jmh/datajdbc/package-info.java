/**
 * The Spring Data JDBC {@code saveAll} benchmark's aggregates, one per id source with the same payload columns, the
 * application context it saves through and the data source that counts and slows sequence round trips. See
 * {@link dev.seqgen.jmh.DataJdbcSaveAllBenchmark}.
 */
package dev.seqgen.jmh.datajdbc;
