package dev.seqgen.hibernate.planted.clean;

import dev.seqgen.jdbc.ApplicationTables;
import java.sql.Connection;
import java.util.List;
import java.util.Map;

/** Planted: what the SQL rule allows, a connection borrowed elsewhere handed to the store layer unused. */
final class HandsOverAConnection {

    private HandsOverAConnection() {
    }

    static Map<ApplicationTables.Column, ApplicationTables.Refusal> refusals(Connection connection) {
        return ApplicationTables.refusals(connection, List.of(new ApplicationTables.Column("orders", "id")));
    }
}
