/** Ids and numbers of Spring Data JDBC aggregates from seqgen sequences. See {@code docs/spring-data-jdbc.md}. */
@NullMarked
package dev.seqgen.boot.data.jdbc;

import org.jspecify.annotations.NullMarked;
