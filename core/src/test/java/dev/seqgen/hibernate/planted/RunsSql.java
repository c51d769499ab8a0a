package dev.seqgen.hibernate.planted;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Planted: the Hibernate layer running SQL of its own instead of asking a store. */
final class RunsSql {

    private RunsSql() {
    }

    static long highestId(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select max(id) from orders")) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }
}
