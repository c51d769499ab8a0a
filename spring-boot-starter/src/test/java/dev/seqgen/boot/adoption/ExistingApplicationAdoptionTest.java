package dev.seqgen.boot.adoption;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.Slow;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.testing.ChildJvm;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An existing Spring Boot application with rows in its table (ids 1..50 from {@code IDENTITY}) adopts seqgen
 * with the dependency and the annotation only, on H2, PostgreSQL and MariaDB: no duplicate key, whether its
 * rows come from a deferred {@code data.sql} after Hibernate created the schema, or are already there when
 * two JVMs of the application start at once.
 */
@Slow
class ExistingApplicationAdoptionTest {

    private static final int EXISTING = 50;
    private static final int CREATED_PER_JVM = AdoptingApplication.THREADS * AdoptingApplication.CUSTOMERS_PER_THREAD;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void rowsFromADeferredDataSqlAreNeverCollidedWith(TestDatabase database) throws Exception {
        String[] url = connection(database, false);
        String seqgenTable = TestDatabase.uniqueTable();
        database.dropTable("adopt_customer");
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(AdoptingApplication.class)
                .properties(common(url, seqgenTable))
                .properties("spring.jpa.hibernate.ddl-auto=create",
                        "spring.jpa.defer-datasource-initialization=true", "spring.sql.init.mode=always",
                        "spring.sql.init.data-locations=classpath:dev/seqgen/boot/adoption/data.sql")
                .run()) {
            List<Integer> ids = AdoptingApplication.createCustomers(context);
            assertThat(ids).hasSize(CREATED_PER_JVM).doesNotHaveDuplicates()
                    .allSatisfy(id -> assertThat(id).isGreaterThan(EXISTING));
            assertThat(count(url)).isEqualTo(EXISTING + CREATED_PER_JVM);
        } finally {
            database.dropTable("adopt_customer");
            database.dropTable(seqgenTable);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void twoJvmsStartingAtOnceOnExistingRowsAgree(TestDatabase database) throws Exception {
        // H2 in a file with its automatic server, so that the second JVM reaches the same database.
        String[] url = connection(database, true);
        String seqgenTable = TestDatabase.uniqueTable();
        // On H2 the first JVM to open the file serves it to the others: this one, for the whole test, so that
        // its own connections never depend on the second JVM's server, which goes away when that JVM ends.
        Connection server = DriverManager.getConnection(url[0], url[1], url[2]);
        execute(url, "DROP TABLE IF EXISTS adopt_customer");
        execute(url, "CREATE TABLE adopt_customer (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(255))");
        execute(url, existingRows());
        List<String> properties = new ArrayList<>(List.of(common(url, seqgenTable)));
        properties.add("spring.jpa.hibernate.ddl-auto=none");
        Path stderr = Files.createDirectories(Path.of("target", "adoption")).resolve(database.name() + "-second-jvm.log");
        try (ChildJvm second = ChildJvm.start("second", AdoptingApplication.class,
                properties.stream().map(p -> "--" + p).toList(), Map.of(), stderr)) {
            CompletableFuture<List<Integer>> first = CompletableFuture.supplyAsync(() -> {
                try (ConfigurableApplicationContext context = new SpringApplicationBuilder(AdoptingApplication.class)
                        .properties(properties.toArray(String[]::new)).run()) {
                    return AdoptingApplication.createCustomers(context);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, Concurrently.OWN_THREAD);
            String line = second.awaitLine("ids ", TimeUnit.MINUTES.toMillis(3));
            assertThat(line).as("the second JVM's ids (its stderr: %s)", stderr).isNotNull();
            List<Integer> all = new ArrayList<>(first.get(3, TimeUnit.MINUTES));
            all.addAll(Arrays.stream(line.substring("ids ".length()).split(",")).map(Integer::valueOf)
                    .collect(Collectors.toList()));
            assertThat(all).hasSize(2 * CREATED_PER_JVM).doesNotHaveDuplicates()
                    .allSatisfy(id -> assertThat(id).isGreaterThan(EXISTING));
            assertThat(count(url)).isEqualTo(EXISTING + 2 * CREATED_PER_JVM);
        } finally {
            execute(url, "DROP TABLE IF EXISTS adopt_customer");
            execute(url, "DROP TABLE IF EXISTS " + seqgenTable);
            server.close();
        }
    }

    private static String[] common(String[] url, String seqgenTable) {
        return new String[] {"spring.datasource.url=" + url[0], "spring.datasource.username=" + url[1],
                "spring.datasource.password=" + url[2], "spring.main.web-application-type=none",
                "spring.main.banner-mode=off", "spring.jpa.open-in-view=false", "seqgen.table=" + seqgenTable,
                "seqgen.schema.initialize=always"};
    }

    /**
     * URL, user and password of the database; across JVMs, for H2 a file database with its automatic server, for
     * HSQLDB an in-memory database behind HSQLDB's own server, started in this JVM.
     */
    private static String[] connection(TestDatabase database, boolean acrossJvms) {
        if (database == TestDatabase.H2 && acrossJvms) {
            Path file = Path.of("target", "adoption", "h2").toAbsolutePath();
            return new String[] {"jdbc:h2:file:" + file + ";AUTO_SERVER=TRUE;LOCK_TIMEOUT=60000", "sa", ""};
        }
        if (database == TestDatabase.HSQLDB && acrossJvms) {
            return new String[] {"jdbc:hsqldb:hsql://localhost:" + hsqldbServerPort() + "/adoption", "SA", ""};
        }
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        return new String[] {shared.getJdbcUrl(), shared.getUsername() == null ? "" : shared.getUsername(),
                shared.getPassword() == null ? "" : shared.getPassword()};
    }

    private static int hsqldbServerPort;

    /** HSQLDB's network server over an in-memory database, for the second JVM; started once, a daemon. */
    private static synchronized int hsqldbServerPort() {
        if (hsqldbServerPort == 0) {
            try (ServerSocket free = new ServerSocket(0)) {
                hsqldbServerPort = free.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            org.hsqldb.server.Server server = new org.hsqldb.server.Server();
            server.setDatabaseName(0, "adoption");
            server.setDatabasePath(0, "mem:adoption");
            server.setPort(hsqldbServerPort);
            server.setDaemon(true);
            server.setSilent(true);
            server.setLogWriter(null);
            server.setErrWriter(null);
            server.start();
        }
        return hsqldbServerPort;
    }

    private static String existingRows() {
        try (var in = ExistingApplicationAdoptionTest.class.getResourceAsStream("data.sql")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.startsWith("--")).collect(Collectors.joining("\n")).replace(";", "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void execute(String[] url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url[0], url[1], url[2]);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static int count(String[] url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url[0], url[1], url[2]);
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM adopt_customer")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
