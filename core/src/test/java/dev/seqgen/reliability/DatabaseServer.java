package dev.seqgen.reliability;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.testing.TestDatabase;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a {@link TestDatabase} server is, so that a test can build pools of its own (behind a proxy, at
 * another isolation level) or hand the address to another JVM.
 *
 * @param database the database
 * @param url its JDBC URL
 * @param user the user
 * @param password the password
 */
record DatabaseServer(TestDatabase database, String url, String user, String password) {

    private static final Map<TestDatabase, DatabaseServer> FOUND = new EnumMap<>(TestDatabase.class);
    private static final Pattern HOST_AND_PORT = Pattern.compile("^(jdbc:[a-z0-9]+://)([^/:?]+)(?::(\\d+))?(.*)$");

    /** Finds the server the way every store test does (environment, Testcontainers, or skip/fail). */
    static synchronized DatabaseServer of(TestDatabase database) {
        DatabaseServer server = FOUND.get(database);
        if (server == null) {
            try (HikariDataSource probe = database.newPool(1)) {
                server = new DatabaseServer(database, probe.getJdbcUrl(), probe.getUsername(), probe.getPassword());
            }
            FOUND.put(database, server);
        }
        return server;
    }

    /** The TCP port of the server, from its URL. */
    int port() {
        Matcher m = matcher();
        return m.group(3) != null ? Integer.parseInt(m.group(3)) : database == TestDatabase.MARIADB ? 3306 : 5432;
    }

    /** The host of the server, from its URL. */
    String host() {
        return matcher().group(2);
    }

    /** The same URL pointing at {@code 127.0.0.1:port} instead, with extra driver parameters appended. */
    String urlVia(int port, String driverParameters) {
        Matcher m = matcher();
        String rest = m.group(4);
        String separator = rest.contains("?") ? "&" : "?";
        return m.group(1) + "127.0.0.1:" + port + rest + (driverParameters.isEmpty() ? "" : separator + driverParameters);
    }

    /** A new pool of {@code size} connections to {@code url}, tuned by {@code tuning}; close it. */
    HikariDataSource pool(String url, int size, Consumer<HikariConfig> tuning) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(size);
        config.setPoolName("reliability-" + database);
        tuning.accept(config);
        return new HikariDataSource(config);
    }

    /** A new pool of {@code size} connections to the server itself; close it. */
    HikariDataSource pool(int size, Consumer<HikariConfig> tuning) {
        return pool(url, size, tuning);
    }

    private Matcher matcher() {
        Matcher m = HOST_AND_PORT.matcher(url);
        if (!m.matches()) {
            throw new IllegalStateException("cannot find host and port in " + url);
        }
        return m;
    }
}
