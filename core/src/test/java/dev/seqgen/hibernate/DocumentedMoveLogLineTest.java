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
 * logger the page names: the example and the logger are read from the page, the example's sequence and table names
 * stand for any, its numbers are this test's.
 */
class DocumentedMoveLogLineTest {

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    @Test
    void theMoveIsLoggedAsTheGuideShowsIt() throws Exception {
        String guide = Files.readString(RepositoryFiles.find("docs/hibernate.md")).replaceAll("\\s*\\n\\s*", " ");
        Matcher example = Pattern.compile(
                "`System.Logger` `(dev\\.seqgen\\.[\\w.]+)`[^`]*`(seqgen: moved sequence [^`]+)`").matcher(guide);
        assertThat(example.find()).as("docs/hibernate.md shows the line and its logger").isTrue();
        String logger = example.group(1);
        String line = example.group(2);
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
        assertThat(logs.linesWithLogger(Level.INFO)).as("the INFO lines, against the guide's " + logger + ": " + line)
                .anySatisfy(message -> assertThat(message).matches(Pattern.quote(logger + ": ") + logged.pattern()));
    }
}
