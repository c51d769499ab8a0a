/**
 * The JDBC stores: {@link dev.seqgen.jdbc.JdbcSequenceStore} keeps each sequence as a row of a table,
 * {@link dev.seqgen.jdbc.NativeSequenceStore} as a database sequence, with the SQL of each supported database in
 * {@link dev.seqgen.jdbc.JdbcDialect}.
 */
@NullMarked
package dev.seqgen.jdbc;

import org.jspecify.annotations.NullMarked;
