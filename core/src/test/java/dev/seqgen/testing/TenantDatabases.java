package dev.seqgen.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;

/**
 * What the multi-tenancy tests need of a server: a database of the test JVM's own per tenant (PostgreSQL, MariaDB),
 * pools on it, and Hibernate's two kinds of {@code MultiTenantConnectionProvider}: one that sets the tenant's schema
 * on a shared pool's connections (a MariaDB schema is a database: there it sets the catalog), one that takes the
 * tenant's connections from a pool on the tenant's database.
 */
public final class TenantDatabases {

    /** A JDBC URL's parts: everything up to the database name, the name, and what follows it. */
    private static final Pattern URL_DATABASE = Pattern.compile("(jdbc:[a-z0-9]+://[^/]+/)([A-Za-z0-9_]+)(.*)");

    private TenantDatabases() {
    }

    /**
     * The name of a database of this test JVM's for one tenant: the test database's name (which carries the JVM's
     * suffix, see {@code seqgentest.database.suffix}), an underscore and {@code name}, so that it matches the
     * {@code seqgen_test_*} databases the test user may create; created if missing, never dropped (a database takes
     * a while to create on PostgreSQL: the tests empty theirs instead).
     *
     * @param db PostgreSQL or MariaDB
     * @param name the tenant's part of the name: lowercase letters, digits, underscores
     * @return the database's name
     */
    public static String database(TestDatabase db, String name) {
        String database = currentDatabase(db) + "_" + name.toLowerCase(Locale.ROOT);
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            if (db == TestDatabase.MARIADB) {
                statement.execute("CREATE DATABASE IF NOT EXISTS " + database);
            } else {
                try (var exists = statement.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database
                        + "'")) {
                    if (exists.next()) {
                        return database;
                    }
                }
                try {
                    statement.execute("CREATE DATABASE " + database);
                } catch (SQLException e) {
                    if (!"42P04".equals(e.getSQLState())) { // duplicate_database: another JVM made it first
                        throw e;
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + database + " on " + db, e);
        }
        return database;
    }

    /** The database the test JVM's pool of {@code db} connects to. */
    public static String currentDatabase(TestDatabase db) {
        try (Connection connection = db.dataSource().getConnection()) {
            return connection.getCatalog();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A new pool on another database of the server of {@code db}; close it.
     *
     * @param db PostgreSQL or MariaDB
     * @param database the database, from {@link #database}
     * @param size the pool's largest size (it opens connections on demand)
     * @return the pool
     */
    public static HikariDataSource pool(TestDatabase db, String database, int size) {
        HikariDataSource shared = (HikariDataSource) db.dataSource();
        Matcher url = URL_DATABASE.matcher(shared.getJdbcUrl());
        if (!url.matches()) {
            throw new IllegalStateException("no database name in " + shared.getJdbcUrl());
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url.group(1) + database + url.group(3));
        config.setUsername(shared.getUsername());
        config.setPassword(shared.getPassword());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(30_000);
        config.setPoolName("seqgen-test-" + database);
        return new HikariDataSource(config);
    }

    /** Runs statements on a data source, each committed. */
    public static void execute(DataSource dataSource, String... sql) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (String each : sql) {
                statement.execute(each);
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(String.join("; ", sql) + " failed", e);
        }
    }

    /**
     * Each tenant's connections set the tenant's schema, as schema-per-tenant applications do: {@code setSchema},
     * or on MariaDB, whose schemas are databases, {@code setCatalog}; the connection's own is put back on release.
     */
    public static final class SchemaPerTenant implements MultiTenantConnectionProvider<String> {

        private static final long serialVersionUID = 1L;

        private final transient DataSource dataSource;
        private final transient Function<String, String> schemaOf;
        /** The schema (MariaDB: catalog) of the pool's connections, put back on release: the pool does not. */
        private transient volatile String home;

        /**
         * @param dataSource the shared pool
         * @param schemaOf the schema (MariaDB: the database) of each tenant
         */
        public SchemaPerTenant(DataSource dataSource, Function<String, String> schemaOf) {
            this.dataSource = dataSource;
            this.schemaOf = schemaOf;
        }

        @Override
        public Connection getAnyConnection() throws SQLException {
            return dataSource.getConnection();
        }

        @Override
        public void releaseAnyConnection(Connection connection) throws SQLException {
            connection.close();
        }

        @Override
        public Connection getConnection(String tenant) throws SQLException {
            Connection connection = dataSource.getConnection();
            String schema = schemaOf.apply(tenant);
            if (mariadb(connection)) {
                home = connection.getCatalog();
                connection.setCatalog(schema);
            } else {
                home = connection.getSchema();
                connection.setSchema(connection.getMetaData().storesUpperCaseIdentifiers()
                        ? schema.toUpperCase(Locale.ROOT) : schema);
            }
            return connection;
        }

        @Override
        public void releaseConnection(String tenant, Connection connection) throws SQLException {
            try {
                if (mariadb(connection)) {
                    connection.setCatalog(home);
                } else {
                    connection.setSchema(home);
                }
            } finally {
                connection.close();
            }
        }

        private static boolean mariadb(Connection connection) throws SQLException {
            String product = connection.getMetaData().getDatabaseProductName();
            return product.contains("MariaDB") || product.contains("MySQL");
        }

        @Override
        public boolean supportsAggressiveRelease() {
            return false;
        }

        @Override
        public boolean isUnwrappableAs(Class<?> unwrapType) {
            return false;
        }

        @Override
        public <T> T unwrap(Class<T> unwrapType) {
            throw new UnsupportedOperationException();
        }
    }

    /** Each tenant's connections come from a pool on the tenant's database; any other from the default pool. */
    public static final class DatabasePerTenant implements MultiTenantConnectionProvider<String> {

        private static final long serialVersionUID = 1L;

        private final transient DataSource defaultPool;
        private final transient Map<String, ? extends DataSource> tenants;

        /**
         * @param defaultPool the pool of connections not of a tenant (Hibernate's start-up)
         * @param tenants each tenant's pool
         */
        public DatabasePerTenant(DataSource defaultPool, Map<String, ? extends DataSource> tenants) {
            this.defaultPool = defaultPool;
            this.tenants = Map.copyOf(tenants);
        }

        @Override
        public Connection getAnyConnection() throws SQLException {
            return defaultPool.getConnection();
        }

        @Override
        public void releaseAnyConnection(Connection connection) throws SQLException {
            connection.close();
        }

        @Override
        public Connection getConnection(String tenant) throws SQLException {
            DataSource pool = tenants.get(tenant);
            if (pool == null) {
                throw new SQLException("no database for tenant '" + tenant + "'");
            }
            return pool.getConnection();
        }

        @Override
        public void releaseConnection(String tenant, Connection connection) throws SQLException {
            connection.close();
        }

        @Override
        public boolean supportsAggressiveRelease() {
            return false;
        }

        @Override
        public boolean isUnwrappableAs(Class<?> unwrapType) {
            return false;
        }

        @Override
        public <T> T unwrap(Class<T> unwrapType) {
            throw new UnsupportedOperationException();
        }
    }
}
