package dev.seqgen.hibernate;

import dev.seqgen.hibernate.GeneratorSettings.Registration;
import dev.seqgen.jdbc.AssignedValues;
import dev.seqgen.spi.SequenceStore;
import org.hibernate.MappingException;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What seqgen checks at start-up beyond creating the rows, and how it reports it: columns that refuse the values
 * seqgen assigns (all of them in one report), and a sequence table that cannot be read. Each check runs once per
 * start, never per value.
 */
final class StartUpChecks {

    private static final System.Logger LOG = System.getLogger(StartUpChecks.class.getName());

    private StartUpChecks() {
    }

    /**
     * Fails the start-up when columns seqgen assigns refuse assigned values (identity columns declared
     * {@code GENERATED ALWAYS AS IDENTITY}, computed columns), naming every one of them at once, each with its
     * entity, table, column, database and the change, rather than letting every insert fail or a restart per
     * column find the next. The store layer reads the columns ({@link AssignedValues#refusals}) on a connection
     * borrowed from Hibernate, here at start-up only.
     */
    static void requireAssignableColumns(@Nullable ConnectionProvider provider, List<Registration> registrations) {
        if (provider == null) {
            return;
        }
        Map<AssignedValues.Column, Registration> columns = new LinkedHashMap<>();
        for (Registration registration : registrations) {
            if (registration.table() != null && registration.column() != null) {
                columns.putIfAbsent(new AssignedValues.Column(registration.table(), registration.column()),
                        registration);
            }
        }
        if (columns.isEmpty()) {
            return;
        }
        Connection connection;
        try {
            connection = provider.getConnection();
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.DEBUG, "seqgen: no connection to check the generated columns: " + e.getMessage());
            return;
        }
        Map<AssignedValues.Column, AssignedValues.Refusal> refusals;
        try {
            refusals = AssignedValues.refusals(connection, columns.keySet());
        } finally {
            try {
                provider.closeConnection(connection);
            } catch (SQLException ignored) {
                // the pool's business
            }
        }
        List<ColumnRefusesAssignedValuesException.RefusingColumn> refusing = new ArrayList<>();
        refusals.forEach((column, refusal) -> {
            Registration registration = columns.get(column);
            refusing.add(new ColumnRefusesAssignedValuesException.RefusingColumn(registration.name(),
                    registration.where(), column.table(), column.column(), refusal.database(), refusal.reason(),
                    refusal.fix()));
        });
        if (!refusing.isEmpty()) {
            ColumnRefusesAssignedValuesException refused = new ColumnRefusesAssignedValuesException(refusing);
            throw new MappingException(refused.getMessage(), refused);
        }
    }

    /**
     * What the JDBC store's table looks like when a row could not be created: null when the table can be read (the
     * creation's own error says it all), otherwise what reading it said, with what creates a missing table. The
     * reading's error is added to the creation's as suppressed, so both reach the log.
     */
    static @Nullable String unreadableTable(SequenceStore store, RuntimeException creation) {
        SequenceStore.SqlTable table = store.sqlTable().orElse(null);
        if (table == null) {
            return null;
        }
        try {
            store.nextValue("seqgen-table-probe");
            return null;
        } catch (RuntimeException unreadable) {
            creation.addSuppressed(unreadable);
            String script = "dev/seqgen/schema/" + table.platform() + ".sql";
            return "seqgen's sequence table " + table.name() + " could not be read in the " + store.name()
                    + " database: " + unreadable.getMessage() + " (creating the row failed with: "
                    + creation.getMessage() + "). If the table does not exist, create it: with Spring Boot,"
                    + " seqgen.jdbc.initialize-schema=always runs the script " + script + " of seqgen-spring-boot-"
                    + "starter at start-up (or copy it into your Flyway or Liquibase migrations)"
                    + (table.platform().equals("spanner") ? " (Hibernate's Spanner dialects cannot create it, so it"
                            + " is not part of Hibernate's schema there)"
                            : "; or let Hibernate create it, since it is part of Hibernate's schema"
                            + " (hibernate.hbm2ddl.auto, spring.jpa.hibernate.ddl-auto)");
        }
    }
}
