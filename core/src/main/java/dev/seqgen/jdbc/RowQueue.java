package dev.seqgen.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * The transactions waiting for a row lock of a sequence table (any row: sequences that start together count
 * together), for a start-up reservation ({@link JdbcSequenceStore#reserveSized}). PostgreSQL only: a transaction
 * waiting for a row holds or waits for its tuple lock, so the table's tuple locks in {@code pg_locks}, which every user
 * may read, count them. Elsewhere, or where the read is refused, reservations are sized without the queue.
 */
final class RowQueue {

    private static final String POSTGRESQL = "SELECT count(*) FROM pg_locks WHERE locktype = 'tuple' AND database ="
            + " (SELECT oid FROM pg_database WHERE datname = current_database()) AND relation = to_regclass(?)";

    private RowQueue() {
    }

    /** {@return the statement that counts the waiters at {@code dialect}'s rows, or null if it has none} */
    static @Nullable String sql(JdbcDialect dialect) {
        return dialect == JdbcDialect.POSTGRESQL ? POSTGRESQL : null;
    }

    /** {@return the transactions waiting for a row of {@code table}, as {@code sql} counts them} */
    static int waiters(Connection connection, String sql, String table) throws SQLException {
        try (PreparedStatement statement = JdbcDialect.bind(connection.prepareStatement(sql), table);
                ResultSet rs = statement.executeQuery()) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }
}
