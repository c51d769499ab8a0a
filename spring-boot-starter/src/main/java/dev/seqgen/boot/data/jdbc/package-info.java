/**
 * Ids and numbers of Spring Data JDBC aggregates from seqgen sequences: a {@code BeforeConvertEvent} listener and a
 * {@code BeforeConvertCallback} that fill the {@link dev.seqgen.SeqgenValue} properties of new aggregates (the
 * listener those it can fill in place, before the application's listeners see the event), auto-configured when
 * Spring Data JDBC is on the class path. See {@code docs/spring-data-jdbc.md}.
 */
@NullMarked
package dev.seqgen.boot.data.jdbc;

import org.jspecify.annotations.NullMarked;
