package dev.seqgen.jdbc;

import dev.seqgen.KeyOrder;
import dev.seqgen.KeyRange;
import dev.seqgen.SequenceSettings;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Reads which counters an application's column already holds, for both JDBC stores'
 * {@link dev.seqgen.spi.SequenceStore#highestCounter}: one {@code max} for sequential keys; for mapped keys one
 * pass over the column's keys outside the skip range, each mapped back to its counter (no database has the
 * mapping as a function, and the pass happens once, when a sequence has no counter row yet). On a connection of
 * the store's, read-only and rolled back, so no caller's transaction holds the read.
 */
final class ExistingKeys {

    /** Keys read per round trip in the pass over a column. */
    private static final int FETCH_SIZE = 10_000;

    private ExistingKeys() {
    }

    /**
     * @return the highest counter, 0 for an empty column
     * @throws SQLException if the table cannot be read (it may not exist yet: the schema tool creates it later)
     */
    static long highestCounter(JdbcConnections connections, String table, String column, SequenceSettings settings)
            throws SQLException {
        try (Connection connection = connections.get()) {
            try {
                return settings.keyOrder() == KeyOrder.SEQUENTIAL ? max(connection, table, column)
                        : highestMappedCounter(connection, table, column, settings);
            } finally {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
            }
        }
    }

    private static long max(Connection connection, String table, String column) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("select max(" + column + ") from " + table)) {
            return rs.next() ? Math.max(0, rs.getLong(1)) : 0;
        }
    }

    private static long highestMappedCounter(Connection connection, String table, String column,
            SequenceSettings settings) throws SQLException {
        KeyRange skip = settings.skipRange();
        String sql = "select " + column + " from " + table + " where " + column + " > 0" + (skip.isEmpty() ? ""
                : " and (" + column + " < " + skip.min() + " or " + column + " > " + skip.max() + ")");
        long highest = 0;
        try (Statement statement = connection.createStatement()) {
            statement.setFetchSize(FETCH_SIZE);
            try (ResultSet rs = statement.executeQuery(sql)) {
                while (rs.next()) {
                    highest = Math.max(highest, settings.keyOrder().counter(rs.getLong(1)));
                }
            }
        }
        return highest;
    }
}
