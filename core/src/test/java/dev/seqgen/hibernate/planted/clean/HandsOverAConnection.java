package dev.seqgen.hibernate.planted.clean;

import dev.seqgen.jdbc.AssignedValues;
import java.sql.Connection;
import java.util.List;
import java.util.Map;

/** Planted: what the SQL rule allows, a connection borrowed elsewhere handed to the store layer unused. */
final class HandsOverAConnection {

    private HandsOverAConnection() {
    }

    static Map<AssignedValues.Column, AssignedValues.Refusal> refusals(Connection connection) {
        return AssignedValues.refusals(connection, List.of(new AssignedValues.Column("orders", "id")));
    }
}
