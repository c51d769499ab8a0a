package dev.seqgen.boot.autoconfigure;

import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.spi.Identifiers;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.jdbc.metadata.CompositeDataSourcePoolMetadataProvider;
import org.springframework.boot.jdbc.metadata.DataSourcePoolMetadata;
import org.springframework.boot.jdbc.metadata.DataSourcePoolMetadataProvider;

/** Start-up checks of the JDBC store's setup, each failing with a {@link SeqgenSetupException}. */
final class JdbcSchema {

    private static final Log LOG = LogFactory.getLog(JdbcSchema.class);

    private final DataSource dataSource;
    private final SeqgenProperties properties;
    private final List<DataSourcePoolMetadataProvider> poolMetadata;

    JdbcSchema(DataSource dataSource, SeqgenProperties properties, List<DataSourcePoolMetadataProvider> poolMetadata) {
        this.dataSource = dataSource;
        this.properties = properties;
        this.poolMetadata = poolMetadata;
    }

    /** Fails naming the DDL when the sequence table does not exist; warns when its table of kept ranges does not. */
    void requireTable(String table) {
        SQLException unreadable = unreadable(table);
        if (unreadable != null) {
            String observed = unreadable.getMessage() + " [SQLSTATE " + unreadable.getSQLState() + "]";
            if (!isMissingTable(unreadable)) {
                throw new SeqgenSetupException("seqgen could not read its sequence table " + table + " in the"
                        + " application's database: " + observed,
                        "Check that the database answers and that the application's user may read and update "
                                + table + "; the cause below is the database's own error.", unreadable);
            }
            throw new SeqgenSetupException("seqgen's sequence table " + table + " does not exist in the"
                    + " application's database (" + observed + "), and seqgen.schema.initialize="
                    + properties.getSchema().getInitialize().name().toLowerCase(Locale.ROOT)
                    + " did not create it (by default seqgen creates it on embedded databases only).",
                    "Create the tables with " + String.join("; ", ddl(table)) + " (from Flyway, Liquibase or by hand);"
                            + " or let seqgen create them at start-up: seqgen.schema.initialize=always.", unreadable);
        }
        String keptTable = Identifiers.keptTableName(table);
        SQLException kept = unreadable(keptTable);
        if (kept != null && isMissingTable(kept)) {
            LOG.warn("seqgen's table of kept ranges " + keptTable + " does not exist:"
                    + " an instance stopping while others reserve will lose its unused values instead of keeping"
                    + " them for the fleet. Create it (from Flyway, Liquibase or by hand) with " + ddl(table).get(1)
                    + "; or let seqgen create it at start-up: seqgen.schema.initialize=always.");
        }
    }

    /** The error of reading the table, or null when it reads. */
    private @Nullable SQLException unreadable(String table) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT COUNT(*) FROM " + table + " WHERE 1 = 0").close();
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    /** seqgen's DDL for its tables in this database. */
    private List<String> ddl(String table) {
        try (Connection connection = dataSource.getConnection()) {
            return JdbcDialect.forProductName(connection.getMetaData().getDatabaseProductName()).createTablesSql(table);
        } catch (SQLException | IllegalArgumentException e) {
            return List.of("seqgen's DDL for " + table, "seqgen's DDL for " + Identifiers.keptTableName(table));
        }
    }

    /** Fails when the pool holds at most one connection: every other user would wait for the dedicated one. */
    void requireRoomForTheDedicatedConnection() {
        DataSourcePoolMetadata pool = new CompositeDataSourcePoolMetadataProvider(poolMetadata)
                .getDataSourcePoolMetadata(dataSource);
        Integer max = pool != null ? pool.getMax() : null;
        if (max == null || max < 0 || max >= 2) {
            return;
        }
        String poolProperty = maxPoolSizeProperty(dataSource);
        throw new SeqgenSetupException("The DataSource's pool holds at most " + max + " connection"
                + (max == 1 ? "" : "s") + " (" + poolProperty + "=" + max + "), and seqgen's JDBC store keeps one of"
                + " them for its own statements (seqgen.jdbc.dedicated-connection=true): the application would"
                + " wait for a connection that never comes back.",
                "Allow the pool at least 2 connections (" + poolProperty + "), or let the store borrow a connection"
                        + " per reservation instead of keeping one: seqgen.jdbc.dedicated-connection=false.", null);
    }

    private static String maxPoolSizeProperty(DataSource dataSource) {
        String type = dataSource.getClass().getName();
        return type.contains("tomcat") ? "spring.datasource.tomcat.max-active"
                : type.contains("dbcp2") ? "spring.datasource.dbcp2.max-total"
                : type.contains("oracle.ucp") ? "spring.datasource.oracleucp.max-pool-size"
                : "spring.datasource.hikari.maximum-pool-size";
    }

    /** SQLSTATE 42P01 (PostgreSQL), 42S02 (MariaDB, H2...), 42S04 (empty H2), or Spanner JDBC's NOT_FOUND. */
    private static boolean isMissingTable(SQLException e) {
        String state = e.getSQLState();
        return "42P01".equals(state) || "42S02".equals(state) || "42S04".equals(state)
                || (e.getClass().getName().startsWith("com.google.cloud.spanner") && e.getErrorCode() == 5);
    }
}
