package dev.seqgen.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * The databases every store test runs on. How a test finds a server, in order: the environment
 * ({@code SEQGENTEST_POSTGRES_URL}/{@code _USER}/{@code _PASSWORD}, likewise {@code SEQGENTEST_MARIADB_*}),
 * then Testcontainers when a Docker engine answers, then a server the tests start themselves
 * ({@link EmbeddedServers}: PostgreSQL 17 and MariaDB 11.4 from Maven Central); with
 * {@code SEQGENTEST_NO_EMBEDDED=true} instead of that, {@link Servers#missing}: the test is skipped with the reason,
 * or fails when {@code SEQGENTEST_REQUIRE_DATABASES=true} (as in CI).
 */
public enum TestDatabase {

    H2("h2") {
        @Override
        HikariConfig config() {
            HikariConfig config = new HikariConfig();
            // LOCK_TIMEOUT: SYNC callers queue on the row lock for as long as the holder's transaction runs.
            config.setJdbcUrl("jdbc:h2:mem:seqgen-test;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=60000");
            config.setUsername("sa");
            return config;
        }
    },

    /**
     * HSQLDB in memory, in MVCC mode: the SYNC tests need it (in HSQLDB's default LOCKS mode the store refuses SYNC,
     * {@code StoreCapabilitiesTest}); the other strategies work in either mode.
     */
    HSQLDB("hsqldb") {
        @Override
        HikariConfig config() {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl("jdbc:hsqldb:mem:seqgen-test;hsqldb.tx=mvcc");
            config.setUsername("SA");
            config.setPassword("");
            return config;
        }
    },

    POSTGRESQL("postgresql") {
        @Override
        HikariConfig config() {
            return fromEnvironmentOrContainer("POSTGRES");
        }
    },

    MARIADB("mariadb") {
        @Override
        HikariConfig config() {
            return fromEnvironmentOrContainer("MARIADB");
        }
    };

    private static final Map<TestDatabase, HikariDataSource> POOLS = new EnumMap<>(TestDatabase.class);

    /** The system property that gives a test JVM a database of its own on a shared server ({@link #ownDatabase}). */
    static final String OWN_DATABASE = "seqgentest.database.suffix";

    /** A JDBC URL's parts: everything up to the database name, the name, and what follows it. */
    private static final Pattern URL_DATABASE = Pattern.compile("(jdbc:[a-z0-9]+://[^/]+/)([A-Za-z0-9_]+)(.*)");

    private final String displayName;

    TestDatabase(String displayName) {
        this.displayName = displayName;
    }

    abstract HikariConfig config();

    /** Every database, for {@code @MethodSource}. */
    public static Stream<TestDatabase> all() {
        return Stream.of(values());
    }

    /** The shared pool of this database (20 connections), started on first use. */
    public synchronized DataSource dataSource() {
        HikariDataSource pool = POOLS.get(this);
        if (pool == null) {
            HikariConfig config = config();
            config.setPoolName("seqgen-test-" + displayName);
            config.setMaximumPoolSize(20);
            config.setConnectionTimeout(30_000);
            pool = watched(new HikariDataSource(config));
            POOLS.put(this, pool);
        }
        return pool;
    }

    /** A new pool of this database with the given size, for tests that need their own; close it. */
    public HikariDataSource newPool(int size) {
        dataSource();
        HikariConfig config = config();
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(30_000);
        return watched(new HikariDataSource(config));
    }

    /** On HSQLDB, a pool whose lost wake-ups {@link HsqldbLostWakeUps} delivers. */
    private HikariDataSource watched(HikariDataSource pool) {
        if (this == HSQLDB) {
            HsqldbLostWakeUps.watch(pool, pool.getJdbcUrl());
        }
        return pool;
    }

    /** A table name no other test uses. */
    public static String uniqueTable() {
        return "seqgen_t" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    }

    /** Drops a table if it exists. */
    public void dropTable(String table) {
        try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop " + table + " on " + displayName, e);
        }
    }

    /** Runs a statement. */
    public void execute(String sql) {
        try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed on " + displayName, e);
        }
    }

    @Override
    public String toString() {
        return displayName;
    }

    private static HikariConfig fromEnvironmentOrContainer(String key) {
        HikariConfig config = new HikariConfig();
        String database = key.equals("POSTGRES") ? "postgresql" : "mariadb";
        String url = System.getenv("SEQGENTEST_" + key + "_URL");
        if (url != null && !url.isBlank()) {
            String user = System.getenv("SEQGENTEST_" + key + "_USER");
            String password = System.getenv("SEQGENTEST_" + key + "_PASSWORD");
            url = ownDatabase(url, user, password);
            config.setJdbcUrl(url);
            config.setUsername(user);
            config.setPassword(password);
            TestServers.used(database, "the server of SEQGENTEST_" + key + "_URL (" + url + ")");
            return config;
        }
        if (dockerAvailable()) {
            TestServers.used(database, "a Testcontainers " + database + " container");
            return Containers.start(key, config);
        }
        if (Boolean.parseBoolean(System.getenv("SEQGENTEST_NO_EMBEDDED"))) {
            Servers.missing("no " + database + " server: set SEQGENTEST_" + key + "_URL (and _USER, _PASSWORD), run a"
                    + " Docker engine for Testcontainers, or unset SEQGENTEST_NO_EMBEDDED for an embedded server");
        }
        // EmbeddedServers is a class of its own, loaded only here, like Containers.
        return key.equals("POSTGRES") ? EmbeddedServers.postgres(config) : EmbeddedServers.mariadb(config);
    }

    /**
     * The database of the URL, or, when the system property {@value #OWN_DATABASE} names a suffix, a database of this
     * test JVM's own on the same server: the URL's database name, an underscore and the suffix (letters, digits and
     * underscores kept, anything else turned into an underscore), created if it does not exist. Test JVMs that run at
     * the same time on one server (the compatibility lines, core's two test JVMs) set different suffixes, so that
     * tests which use fixed names (a Hibernate {@code @SequenceGenerator}'s sequence, a test class's table prefix)
     * and tests which read every sequence of the schema (Hibernate's schema validation) never meet another JVM's
     * objects. The user needs the right to create databases of that name (.ci/provision.sh grants it).
     */
    static String ownDatabase(String url, String user, String password) {
        String suffix = System.getProperty(OWN_DATABASE, "");
        if (suffix.isBlank()) {
            return url;
        }
        Matcher parts = URL_DATABASE.matcher(url);
        if (!parts.matches()) {
            throw new IllegalStateException("cannot find the database name in " + url + " to give this test JVM its own"
                    + " (-D" + OWN_DATABASE + "=" + suffix + "); expected jdbc:<driver>://<host>[:<port>]/<database>");
        }
        String name = parts.group(2) + "_" + suffix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        boolean postgres = url.startsWith("jdbc:postgresql:");
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            if (postgres) {
                try (ResultSet exists = statement.executeQuery(
                        "SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
                    if (!exists.next()) {
                        createPostgresDatabase(statement, name);
                    }
                }
            } else {
                statement.execute("CREATE DATABASE IF NOT EXISTS " + name);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name + " for this test JVM (-D"
                    + OWN_DATABASE + "=" + suffix + ") on the server of " + url + " as " + user
                    + ": grant the right to create it (.ci/provision.sh does), or leave the property unset", e);
        }
        return parts.group(1) + name + parts.group(3);
    }

    /** PostgreSQL has no {@code CREATE DATABASE IF NOT EXISTS}: another JVM creating it first is no error. */
    private static void createPostgresDatabase(Statement statement, String name) throws SQLException {
        try {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            if (!"42P04".equals(e.getSQLState())) { // duplicate_database
                throw e;
            }
        }
    }

    /**
     * Testcontainers, in a class of its own so that it is loaded only when a container is started: modules whose
     * tests do not start containers never load Testcontainers.
     */
    private static final class Containers {

        static HikariConfig start(String key, HikariConfig config) {
            JdbcDatabaseContainer<?> container = key.equals("POSTGRES")
                    ? new PostgreSQLContainer("postgres:15-alpine") : new MariaDBContainer("mariadb:10.11");
            container.start();
            config.setJdbcUrl(container.getJdbcUrl());
            config.setUsername(container.getUsername());
            config.setPassword(container.getPassword());
            return config;
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
