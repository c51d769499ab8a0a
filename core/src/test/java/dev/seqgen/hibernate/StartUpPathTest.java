package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.testing.ChildJvm;
import dev.seqgen.testing.RepositoryFiles;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * CONTRIBUTING.md's map of the start-up path stays true: a plain Hibernate bootstrap with one {@code Long}
 * {@link SeqgenGenerator} id of the default strategy ({@link DefaultTicket}), started in a JVM of its own with
 * {@code -Xlog:class+load}, persists one entity. Every file of seqgen's main code it loaded until then counts (a
 * nested class with its file): their number is the one CONTRIBUTING.md gives, their lines about the number it gives,
 * and the files its map names are among them, in the order the path loads them. And every statement the path sends
 * is sent once: the child prints each statement and metadata read on its connections.
 */
class StartUpPathTest {

    /** The sentence of CONTRIBUTING.md that lists the files: its count, then the names in backticks. */
    private static final Pattern MAP = Pattern.compile(
            "in the order the path first loads them \\((\\d+)\\): (.*?`)\\.\\s");
    private static final Pattern NAME = Pattern.compile("`([A-Za-z.]+)`");
    /** The sentence of CONTRIBUTING.md that counts every file the path loads, and their lines. */
    private static final Pattern TOTAL = Pattern.compile(
            "In all the path loads (\\d+) files of seqgen's main code, about ([\\d.]+)k lines");
    private static final Pattern LOADED = Pattern.compile("\\[class,load\\s*\\] (dev\\.seqgen\\.[\\w.$]+) source: ");
    private static final String PERSISTED = "persisted ";
    /** How the child prints each statement it sends, and each metadata read. */
    private static final String SENT = "sent> ";
    /** The table store's reservation, on every database: an increment of the row's next value. */
    private static final String RESERVATION = "next_value = next_value +";
    private static final String SEQGEN_TABLE_PREFIX = "seqgen_t";
    /** A start-up reservation's read of the queue at the row (PostgreSQL's lock table). */
    private static final String QUEUE_READ = "from pg_locks";

    @Test
    void onH2TheMapsFilesAreThePath(@TempDir Path dir) throws Exception {
        assertPathIsTheMap(TestDatabase.H2, dir);
    }

    /** The map says PostgreSQL enters the same files as H2 (their differences are branches within them). */
    @Test
    void onPostgreSqlTheMapsFilesAreThePath(@TempDir Path dir) throws Exception {
        assertPathIsTheMap(TestDatabase.POSTGRESQL, dir);
    }

    private static void assertPathIsTheMap(TestDatabase database, Path dir) throws Exception {
        List<String> lines = childsLines(database, dir);
        List<String> path = filesLoaded(lines);
        assertThat(path).as("the files the path loads, in order, against CONTRIBUTING.md's map")
                .containsSubsequence(mapsFiles());
        Matcher total = TOTAL.matcher(contributing());
        assertThat(total.find()).as("CONTRIBUTING.md counts the files the path loads").isTrue();
        // A package-private top-level class (SystemTicker, NoopTracker) is in the file of the class it serves.
        Path sources = RepositoryFiles.find("core/src/main/java/dev/seqgen/SequenceRegistry.java").getParent();
        List<Path> files = path.stream().map(file -> sources.resolve(file.replace('.', '/') + ".java"))
                .filter(Files::isRegularFile).toList();
        assertThat(files).as("every file of seqgen's main code the path loads")
                .hasSize(Integer.parseInt(total.group(1)));
        long sourceLines = 0;
        for (Path file : files) {
            sourceLines += Files.readAllLines(file).size();
        }
        assertThat(sourceLines / 1000.0).as("their lines, in thousands")
                .isCloseTo(Double.parseDouble(total.group(2)), withinPercentage(10));
        assertEveryStatementSentOnce(lines);
    }

    /**
     * Every statement of the path, Hibernate's and seqgen's (the row's creation, the read of the highest key, the
     * metadata read of the entity table's columns), is sent once, but the reservation: the default strategy's
     * background refill may reserve the next block before the first entity is committed, so it is sent once or
     * twice, whichever way the machine schedules it, and on PostgreSQL each start-up reservation reads the queue at
     * the row twice.
     */
    private static void assertEveryStatementSentOnce(List<String> lines) {
        List<String> statements = lines.stream().filter(line -> line.startsWith(SENT))
                .map(line -> line.substring(SENT.length())).toList();
        Map<String, Long> times = statements.stream()
                .collect(Collectors.groupingBy(sql -> sql, LinkedHashMap::new, Collectors.counting()));
        List<String> reservations = times.keySet().stream().filter(sql -> sql.contains(RESERVATION)).toList();
        assertThat(reservations).as("the reservation among the statements " + statements).hasSize(1);
        assertThat(times.get(reservations.get(0))).as("reservations sent").isBetween(1L, 2L);
        assertThat(times.keySet()).as("the row created, among " + statements)
                .anyMatch(sql -> (sql.startsWith("insert") || sql.startsWith("merge"))
                        && sql.contains(" " + SEQGEN_TABLE_PREFIX));
        long reservationsSent = times.remove(reservations.get(0));
        // A start-up reservation on PostgreSQL reads the queue at the row before and after it locks the row.
        times.keySet().stream().filter(sql -> sql.contains(QUEUE_READ)).toList().forEach(queueRead -> assertThat(
                times.remove(queueRead)).as("reads of the queue at the row, two per start-up reservation")
                .isBetween(2L, 2 * reservationsSent));
        assertThat(times).as("every statement of the path but the reservation, and how often it was sent")
                .allSatisfy((sql, sent) -> assertThat(sent).as(sql).isOne());
    }

    /** The child JVM's output until its first entity is persisted and committed. */
    private static List<String> childsLines(TestDatabase database, Path dir) throws IOException, InterruptedException {
        try (ChildJvm child = ChildJvm.start("start-up-path", List.of("-Xlog:class+load=info:stdout"),
                PersistOne.class, List.of(database.name()), sameServer(database), dir.resolve("stderr.txt"))) {
            List<String> lines = child.linesBefore(PERSISTED, 120_000);
            assertThat(child.awaitExit(60_000)).as("the child's exit code").isZero();
            return lines;
        }
    }

    /**
     * The top-level classes of seqgen's main code the child loaded, named relative to {@code dev.seqgen}, in the
     * order they were first loaded.
     */
    private static List<String> filesLoaded(List<String> lines) {
        String mainCode = location(SeqgenIntegrator.class.getName());
        Set<String> files = new LinkedHashSet<>();
        for (String line : lines) {
            Matcher loaded = LOADED.matcher(line);
            if (loaded.find()) {
                String name = loaded.group(1);
                String file = name.contains("$") ? name.substring(0, name.indexOf('$')) : name;
                if (mainCode.equals(location(file))) {
                    files.add(file.substring("dev.seqgen.".length()));
                }
            }
        }
        return new ArrayList<>(files);
    }

    /**
     * The environment that points the child at this JVM's server of the database (the environment's, or the embedded
     * server this JVM started), so that the child starts none of its own.
     */
    private static Map<String, String> sameServer(TestDatabase database) {
        if (database != TestDatabase.POSTGRESQL) {
            return Map.of();
        }
        HikariDataSource server = (HikariDataSource) database.dataSource();
        return Map.of("SEQGENTEST_POSTGRES_URL", server.getJdbcUrl(), "SEQGENTEST_POSTGRES_USER", server.getUsername(),
                "SEQGENTEST_POSTGRES_PASSWORD", server.getPassword());
    }

    /** Where a class of this JVM's class path comes from (its class path entry), or "" when it is not there. */
    private static String location(String className) {
        String resource = className.replace('.', '/') + ".class";
        URL url = StartUpPathTest.class.getClassLoader().getResource(resource);
        if (url == null) {
            return "";
        }
        String found = url.toString();
        return found.substring(0, found.length() - resource.length());
    }

    /** The files CONTRIBUTING.md's map lists, relative to {@code dev.seqgen}, after checking its count. */
    private static List<String> mapsFiles() throws IOException {
        Matcher map = MAP.matcher(contributing());
        assertThat(map.find()).as("CONTRIBUTING.md lists the files of the start-up path").isTrue();
        List<String> files = new ArrayList<>();
        Matcher name = NAME.matcher(map.group(2));
        while (name.find()) {
            String listed = name.group(1);
            files.add(listed.contains(".") ? listed : packageOf(listed) + listed);
        }
        assertThat(files).as("the count CONTRIBUTING.md gives").hasSize(Integer.parseInt(map.group(1)));
        return files;
    }

    private static String contributing() throws IOException {
        return Files.readString(RepositoryFiles.find("CONTRIBUTING.md")).replaceAll("\\s+", " ");
    }

    /** The map names the Hibernate layer's classes and the API's by simple name: whichever package has it. */
    private static String packageOf(String simpleName) {
        List<String> packages = new ArrayList<>();
        for (String candidate : List.of("hibernate.", "")) {
            if (!location("dev.seqgen." + candidate + simpleName).isEmpty()) {
                packages.add(candidate);
            }
        }
        assertThat(packages).as("the one package of " + simpleName).hasSize(1);
        return packages.get(0);
    }

    /** The child: plain Hibernate, one entity persisted and committed, then the marker line. */
    public static final class PersistOne {

        private PersistOne() {
        }

        public static void main(String[] args) {
            TestDatabase database = TestDatabase.valueOf(args[0]);
            String seqgenTable = TestDatabase.uniqueTable();
            try {
                SessionFactory sessionFactory = HibernateTesting.sessionFactory(
                        PrintedStatements.wrap(database.dataSource()),
                        HibernateTesting.prefix("sup_"), seqgenTable, Map.of(),
                        DefaultTicket.class);
                try {
                    DefaultTicket ticket = new DefaultTicket();
                    HibernateTesting.inTransaction(sessionFactory, session -> session.persist(ticket));
                    System.out.println(PERSISTED + ticket.id());
                    System.out.flush();
                } finally {
                    sessionFactory.close();
                }
            } finally {
                database.dropTable(seqgenTable);
            }
        }
    }

    /**
     * A data source whose connections print, one line each, every statement they prepare or execute and every
     * metadata read, so that the parent can count them.
     */
    static final class PrintedStatements {

        private PrintedStatements() {
        }

        static DataSource wrap(DataSource target) {
            return proxy(DataSource.class, target, (method, args, result) -> result instanceof Connection connection
                    ? proxy(Connection.class, connection, PrintedStatements::connectionCall) : result);
        }

        private static Object connectionCall(Method method, Object[] args, Object result) {
            if (method.getName().startsWith("prepare") && args[0] instanceof String sql) {
                print(sql);
            } else if (result instanceof Statement statement && !(result instanceof PreparedStatement)) {
                return proxy(Statement.class, statement, (call, callArgs, callResult) -> {
                    if (call.getName().startsWith("execute") && callArgs != null && callArgs[0] instanceof String sql) {
                        print(sql);
                    }
                    return callResult;
                });
            } else if (result instanceof DatabaseMetaData metaData) {
                return proxy(DatabaseMetaData.class, metaData, (call, callArgs, callResult) -> {
                    if (callResult instanceof ResultSet) {
                        print("metadata " + call.getName() + Arrays.toString(callArgs));
                    }
                    return callResult;
                });
            }
            return result;
        }

        private static void print(String sql) {
            System.out.println(SENT + sql.replaceAll("\\s+", " ").trim().toLowerCase(Locale.ROOT));
        }

        @FunctionalInterface
        private interface AfterCall {
            Object apply(Method method, Object[] args, Object result) throws Exception;
        }

        private static <T> T proxy(Class<T> type, T target, AfterCall after) {
            return type.cast(Proxy.newProxyInstance(PrintedStatements.class.getClassLoader(), new Class<?>[] {type},
                    (proxy, method, args) -> {
                        try {
                            return after.apply(method, args, method.invoke(target, args));
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }));
        }
    }
}
