package dev.seqgen.hibernate.planted;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;

/** Planted: the Hibernate layer reading the database's metadata on a connection instead of asking the store layer. */
final class ReadsMetadata {

    private ReadsMetadata() {
    }

    static String database(Connection connection) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        return metaData.getDatabaseProductName();
    }

    static boolean isIdentityColumnPresent(Connection connection) throws SQLException {
        return connection.getMetaData().getColumns(null, null, "ORDERS", "ID").next();
    }
}
