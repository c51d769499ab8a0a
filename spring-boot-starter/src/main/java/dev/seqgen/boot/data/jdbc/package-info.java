/**
 * Ids and numbers of Spring Data JDBC aggregates from seqgen sequences, auto-configured when Spring Data JDBC is on the
 * class path. See {@code docs/spring-data-jdbc.md}.
 */
@NullMarked
package dev.seqgen.boot.data.jdbc;

import org.jspecify.annotations.NullMarked;
