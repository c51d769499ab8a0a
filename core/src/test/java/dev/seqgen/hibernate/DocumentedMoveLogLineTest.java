package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.LogRecords;
import dev.seqgen.testing.RepositoryFiles;
import dev.seqgen.testing.TestDatabase;
import java.nio.file.Files;
import java.util.Map;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The line docs/hibernate.md shows for a row moved above an entity table's highest id is the line logged, under the
 * logger the page names: the example is read from the page, its sequence and table names stand for any, its numbers
 * are this test's.
 */
class DocumentedMoveLogLineTest {

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    @Test
    void theMoveIsLoggedAsTheGuideShowsIt() throws Exception {
        String guide = Files.readString(RepositoryFiles.find("docs/hibernate.md")).replaceAll("\\s*\\n\\s*", " ");
        Matcher example = Pattern.compile("`(seqgen: moved sequence [^`]+)`").matcher(guide);
        assertThat(example.find()).as("docs/hibernate.md shows the line").isTrue();
        String line = example.group(1);
        // The logger the page names for the move, the last one named before the example.
        Matcher named = Pattern.compile("the logger `([\\w.]+)`").matcher(guide.substring(0, example.start()));
        String logger = null;
        while (named.find()) {
            logger = named.group(1);
        }
        assertThat(logger).as("docs/hibernate.md names the logger of the line").isNotNull();
        assertThat(line).as("the example's numbers, which this test's table gives").contains("1001").contains("(1000)");
        Pattern logged = Pattern.compile(Pattern.quote(line).replace("'orders'", "\\E'[^']+'\\Q")
                .replace("table orders", "table \\E\\S+\\Q"));

        String prefix = "ml" + Long.toString(System.nanoTime() % 100000) + "_";
        String seqgenTable = TestDatabase.uniqueTable();
        DataSource dataSource = TestDatabase.H2.dataSource();
        try (SessionFactory first = HibernateTesting.sessionFactory(dataSource, prefix, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), AdoptedOrder.class)) {
            assertThat(first).isNotNull(); // the row is created at 1, the table empty
        }
        HibernateTesting.insertIds(dataSource, prefix + "adopted_order", 1, 1000);
        try (SessionFactory second = HibernateTesting.sessionFactory(dataSource, prefix, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "update"), AdoptedOrder.class)) {
            AdoptedOrder order = new AdoptedOrder();
            HibernateTesting.inTransaction(second, session -> session.persist(order));
            assertThat(order.id()).isEqualTo(1001);
        } finally {
            TestDatabase.H2.dropTable(seqgenTable);
        }
        assertThat(logs.messages(Level.INFO)).as("the INFO lines, against the guide's " + line)
                .anySatisfy(message -> assertThat(message).matches(logged));
        assertThat(logs.loggers(Level.INFO, logged)).as("the logger of the line, against the guide's").isNotEmpty()
                .containsOnly(logger);
    }
}
