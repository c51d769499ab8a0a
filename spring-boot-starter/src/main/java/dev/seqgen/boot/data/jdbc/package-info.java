/**
 * Ids and numbers of Spring Data JDBC aggregates from seqgen sequences: a {@code BeforeConvertCallback} that fills
 * the {@link dev.seqgen.SeqgenValue} properties of new aggregates, auto-configured when Spring Data JDBC is on the
 * class path. See {@code docs/spring-data-jdbc.md}.
 */
@NullMarked
package dev.seqgen.boot.data.jdbc;

import org.jspecify.annotations.NullMarked;
