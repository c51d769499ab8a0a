package dev.seqgen.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * The queue at a sequence table's rows, read from the database's lock tables for a start-up reservation
 * ({@link JdbcSequenceStore#reserveSized}): the transactions waiting for a row lock of the table, every row of it
 * (sequences that start together count together).
 *
 * <ul>
 *   <li>PostgreSQL: a transaction waiting for a row holds or waits for the row's tuple lock, so the table's tuple
 *       locks in {@code pg_locks} count the waiters; every user may read them.
 *   <li>MariaDB: the distinct waiting transactions of {@code information_schema.INNODB_LOCK_WAITS} on the table,
 *       other than the reader's own (InnoDB refreshes these tables at most every 100 ms, so the reader may still be
 *       listed as waiting); they need the {@code PROCESS} privilege, and without it (or on a MySQL without those
 *       tables) the store sizes as without the queue.
 * </ul>
 *
 * Other databases have none that seqgen reads (H2, HSQLDB, Spanner): their reservations are sized as without it.
 */
final class RowQueue {

    private static final String POSTGRESQL = "SELECT count(*) FROM pg_locks WHERE locktype = 'tuple' AND database ="
            + " (SELECT oid FROM pg_database WHERE datname = current_database()) AND relation = to_regclass(?)";

    private static final String MARIADB = "SELECT count(DISTINCT w.requesting_trx_id) FROM"
            + " information_schema.INNODB_LOCK_WAITS w JOIN information_schema.INNODB_LOCKS l"
            + " ON l.lock_id = w.requested_lock_id WHERE l.lock_table LIKE ? AND NOT EXISTS (SELECT 1 FROM"
            + " information_schema.INNODB_TRX t WHERE t.trx_id = w.requesting_trx_id"
            + " AND t.trx_mysql_thread_id = CONNECTION_ID())";

    private RowQueue() {
    }

    /** {@return the statement that counts the waiters at {@code dialect}'s rows, or null if it has none} */
    static @Nullable String sql(JdbcDialect dialect) {
        return switch (dialect) {
            case POSTGRESQL -> POSTGRESQL;
            case MARIADB -> MARIADB;
            default -> null;
        };
    }

    /** {@return the transactions waiting for a row of {@code table}, as {@code sql} counts them} */
    static int waiters(Connection connection, String sql, String table) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            // MariaDB names a table `schema`.`table`; PostgreSQL resolves the name as the store's statements do.
            statement.setString(1, sql == MARIADB ? "%`" + table.substring(table.lastIndexOf('.') + 1) + "`" : table);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }
}
