package dev.seqgen.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * The transactions waiting for a row lock of a sequence table (any row: sequences that start together count
 * together), for a start-up reservation ({@link JdbcSequenceStore#reserveSized}).
 * <ul>
 *   <li>PostgreSQL: a transaction waiting for a row holds or waits for its tuple lock, so the table's tuple locks in
 *       {@code pg_locks}, which every user may read, count them.</li>
 *   <li>MariaDB and MySQL: the server's process list shows each session's running statement; the sessions running one
 *       of the store's locking statements on the table (its {@code UPDATE}, or the locking read of a reservation sized
 *       by the queue) are those waiting for a row, or for a moment the one that holds it. Without the {@code PROCESS}
 *       privilege a user sees only its own sessions: a fleet that shares one database user sees each other. (InnoDB's
 *       lock tables need that privilege for every session and show a copy refreshed at most every 0.1 s.)</li>
 * </ul>
 * Elsewhere, or where the read is refused, reservations are sized without the queue.
 */
final class RowQueue {

    private static final String POSTGRESQL = "SELECT count(*) FROM pg_locks WHERE locktype = 'tuple' AND database ="
            + " (SELECT oid FROM pg_database WHERE datname = current_database()) AND relation = to_regclass(?)";

    /**
     * The table's name, bound once, is used in both patterns as the store's statements name it; sessions of another
     * database (a table of the same name there) do not count, nor does a first use's update of no row, which waits for
     * no lock.
     */
    private static final String MARIADB = "SELECT count(*) FROM information_schema.PROCESSLIST p, (SELECT ? AS t) q"
            + " WHERE p.ID <> CONNECTION_ID() AND p.DB <=> DATABASE() AND p.COMMAND = 'Query'"
            + " AND (p.INFO LIKE CONCAT('UPDATE ', q.t, ' SET %') AND p.INFO NOT LIKE '% AND 1 = 0'"
            + " OR p.INFO LIKE CONCAT('SELECT next_value FROM ', q.t, ' WHERE %FOR UPDATE'))";

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
        try (PreparedStatement statement = JdbcDialect.bind(connection.prepareStatement(sql), table);
                ResultSet rs = statement.executeQuery()) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }
}
