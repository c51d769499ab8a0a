package dev.seqgen.boot.data.jdbc.series;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.autoconfigure.SequenceRegistryCustomizer;
import dev.seqgen.boot.data.jdbc.SeqgenDataJdbcAutoConfiguration;
import dev.seqgen.testing.TestDatabase;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Spring Data JDBC aggregates numbered in series ({@code @SeqgenValue(seriesBy)}), on each database: per company and
 * year, gapless despite a rolled-back save, a series continuing above the rows it holds in every table numbered in it,
 * one increment per series for a {@code saveAll}, and a key that cannot be made refused with nothing written.
 */
class AggregateSeriesTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                    TransactionAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class,
                    SeqgenAutoConfiguration.class, SeqgenDataJdbcAutoConfiguration.class))
            .withUserConfiguration(Ledger.class);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void entriesAreNumberedPerCompanyAndYearOfTheirDate(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        JdbcTemplate jdbc = new JdbcTemplate(shared);
        // The table and columns as Spring Data JDBC derives them (folded to upper case where the database does).
        String ledger = "series_ledger_entry";
        jdbc.execute("DROP TABLE IF EXISTS " + ledger);
        jdbc.execute("CREATE TABLE " + ledger + " (id BIGINT PRIMARY KEY, company VARCHAR(40) NOT NULL, issue_date DATE"
                + " NOT NULL, number BIGINT NOT NULL)");
        jdbc.update("INSERT INTO " + ledger + " VALUES (900001, 'ACME', ?, 41)", LocalDate.of(2026, 1, 5));
        // A second table numbered in the same series: its ACME 2025 rows are adopted with the ledger's.
        String credits = "series_credit_entry";
        jdbc.execute("DROP TABLE IF EXISTS " + credits);
        jdbc.execute("CREATE TABLE " + credits + " (id BIGINT PRIMARY KEY, company VARCHAR(40) NOT NULL, issue_date"
                + " DATE NOT NULL, number BIGINT NOT NULL)");
        jdbc.update("INSERT INTO " + credits + " VALUES (900001, 'ACME', ?, 7)", LocalDate.of(2025, 3, 5));
        try {
            contextRunner.withPropertyValues("spring.datasource.url=" + shared.getJdbcUrl(),
                    "spring.datasource.username=" + shared.getUsername(),
                    "spring.datasource.password=" + (shared.getPassword() == null ? "" : shared.getPassword()),
                    "seqgen.table=" + table, "seqgen.schema.initialize=always").run(context -> {
                        assertThat(context).hasNotFailed();
                        SeriesLedgerRepository entries = context.getBean(SeriesLedgerRepository.class);
                        TransactionTemplate transaction = new TransactionTemplate(
                                context.getBean(PlatformTransactionManager.class));

                        List<SeriesLedgerEntry> first = transaction.execute(status -> entries.saveAll(List.of(
                                new SeriesLedgerEntry("ACME", LocalDate.of(2026, 2, 1)),
                                new SeriesLedgerEntry("Globex", LocalDate.of(2026, 2, 1)),
                                new SeriesLedgerEntry("ACME", LocalDate.of(2025, 12, 31)),
                                new SeriesLedgerEntry("ACME", LocalDate.of(2026, 3, 1)))));
                        assertThat(first).extracting(SeriesLedgerEntry::getNumber)
                                .as("ACME 2026 above its 41, ACME 2025 above its credit entry's 7, Globex from 1")
                                .containsExactly(42L, 1L, 8L, 43L);

                        transaction.executeWithoutResult(status -> {
                            entries.save(new SeriesLedgerEntry("ACME", LocalDate.of(2026, 4, 1)));
                            status.setRollbackOnly();
                        });
                        SeriesLedgerEntry after = transaction.execute(status -> entries.save(
                                new SeriesLedgerEntry("ACME", LocalDate.of(2026, 4, 2))));
                        assertThat(after.getNumber()).as("the rolled-back number is used again").isEqualTo(44);
                        SeriesCreditEntry credit = transaction.execute(status -> context.getBean(
                                SeriesCreditRepository.class).save(new SeriesCreditEntry("ACME",
                                        LocalDate.of(2026, 5, 2))));
                        assertThat(credit.getNumber()).as("the same series, in the other table").isEqualTo(45);

                        assertThatThrownBy(() -> transaction.execute(status -> entries.saveAll(List.of(
                                new SeriesLedgerEntry("Initech", LocalDate.of(2026, 1, 1)),
                                new SeriesLedgerEntry("ACME/IT", LocalDate.of(2026, 1, 1))))))
                                .hasStackTraceContaining("property 'company' is 'ACME/IT'")
                                .hasStackTraceContaining(SeriesLedgerEntry.class.getName());
                        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM " + ledger + " WHERE company = 'Initech'", Long.class)).as("nothing written").isZero();
                        assertThat(jdbc.queryForObject("SELECT next_value FROM " + table + " WHERE name = ?",
                                Long.class, "seqgen_series_ledger_numbers#ACME/2026")).isEqualTo(46);
                    });
        } finally {
            jdbc.execute("DROP TABLE IF EXISTS " + ledger);
            jdbc.execute("DROP TABLE IF EXISTS " + credits);
            database.dropTable(table);
        }
    }

    /**
     * The aggregate callback holds none of the series it used: once the registry released them (the test's ticker
     * past the idle timeout), their handles are unreachable, and a released series continues without a gap.
     */
    @Test
    void theSeriesUsedAreHeldByNothingOnceReleased() {
        String table = TestDatabase.uniqueTable();
        HikariDataSource shared = (HikariDataSource) TestDatabase.H2.dataSource();
        JdbcTemplate jdbc = new JdbcTemplate(shared);
        String ledger = "series_ledger_entry";
        jdbc.execute("DROP TABLE IF EXISTS " + ledger);
        jdbc.execute("CREATE TABLE " + ledger + " (id BIGINT PRIMARY KEY, company VARCHAR(40) NOT NULL, issue_date DATE"
                + " NOT NULL, number BIGINT NOT NULL)");
        String credits = "series_credit_entry";
        jdbc.execute("DROP TABLE IF EXISTS " + credits);
        jdbc.execute("CREATE TABLE " + credits + " (id BIGINT PRIMARY KEY, company VARCHAR(40) NOT NULL, issue_date"
                + " DATE NOT NULL, number BIGINT NOT NULL)");
        AtomicLong now = new AtomicLong();
        Duration idle = Duration.ofMinutes(10);
        int companies = 100;
        try {
            contextRunner.withPropertyValues("spring.datasource.url=" + shared.getJdbcUrl(),
                    "spring.datasource.username=" + shared.getUsername(),
                    "spring.datasource.password=" + (shared.getPassword() == null ? "" : shared.getPassword()),
                    "seqgen.table=" + table, "seqgen.schema.initialize=always")
                    .withBean(SequenceRegistryCustomizer.class, () -> builder -> builder.ticker(now::get)
                            .seriesIdleTimeout(idle))
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        SeriesLedgerRepository entries = context.getBean(SeriesLedgerRepository.class);
                        SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                        List<SeriesLedgerEntry> saved = new ArrayList<>();
                        for (int company = 0; company < companies; company++) {
                            saved.add(new SeriesLedgerEntry("C" + company, LocalDate.of(2026, 2, 1)));
                        }
                        entries.saveAll(saved);
                        List<WeakReference<Sequence>> handles = new ArrayList<>();
                        registry.openSeries("seqgen_series_ledger_numbers").values()
                                .forEach(open -> handles.add(new WeakReference<>(open)));
                        assertThat(handles).hasSize(companies);

                        assertThat(registry.releaseIdleSeries()).as("used since the last look").isZero();
                        now.addAndGet(idle.toNanos());
                        assertThat(registry.releaseIdleSeries()).isEqualTo(companies);
                        for (int round = 0; round < 10 && handles.stream().anyMatch(h -> !h.refersTo(null));
                                round++) {
                            System.gc();
                        }
                        assertThat(handles).as("handles no longer reachable after the release")
                                .allMatch(handle -> handle.refersTo(null));

                        SeriesLedgerEntry next = entries.save(new SeriesLedgerEntry("C7", LocalDate.of(2026, 5, 1)));
                        assertThat(next.getNumber()).as("the released series continues without a gap")
                                .isEqualTo(2L);
                    });
        } finally {
            jdbc.execute("DROP TABLE IF EXISTS " + ledger);
            jdbc.execute("DROP TABLE IF EXISTS " + credits);
            TestDatabase.H2.dropTable(table);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = SeriesLedgerEntry.class)
    static class Ledger {
    }
}
