package dev.seqgen.boot.data.jdbc.spanner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.autoconfigure.SeqgenSpannerAutoConfiguration;
import dev.seqgen.boot.data.jdbc.SeqgenDataJdbcAutoConfiguration;
import dev.seqgen.boot.data.jdbc.spanner.beside.SideNote;
import dev.seqgen.boot.data.jdbc.spanner.beside.SideNoteRepository;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.testing.LogRecords;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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

/**
 * {@code seqgen.store=spanner} beside Spring Data JDBC aggregates on H2: the Spanner store cannot read the aggregate's
 * table, so the first save gets its id from the sequence's row, with a warning naming the sequence and the table.
 */
class SpannerStoreBesideAggregatesOnH2Test {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator();

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    @Test
    void theFirstSaveGetsItsIdAndTheWarningSaysTheTableIsNotAdopted() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                        TransactionAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class,
                        SeqgenSpannerAutoConfiguration.class, SeqgenAutoConfiguration.class,
                        SeqgenDataJdbcAutoConfiguration.class))
                .withUserConfiguration(Notes.class)
                .withPropertyValues("spring.datasource.generate-unique-name=true", "seqgen.store=spanner",
                        "seqgen.spanner.project-id=" + SpannerEmulator.PROJECT,
                        "seqgen.spanner.instance-id=" + emulator.instanceId(),
                        "seqgen.spanner.database-id=" + emulator.databaseId(),
                        "seqgen.spanner.emulator-host=" + emulator.host(),
                        "seqgen.spanner.operation-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s",
                        "seqgen.defaults.acquire-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    jdbc.execute("CREATE TABLE side_note (id BIGINT NOT NULL PRIMARY KEY, text VARCHAR(100))");
                    jdbc.update("INSERT INTO side_note (id, text) VALUES (1000, 'before')");

                    SideNote saved = context.getBean(SideNoteRepository.class).save(new SideNote(null, "after"));
                    assertThat(saved.id()).as("from the row, nothing read from H2").isEqualTo(1L);
                    assertThat(logs.messages(Level.WARNING)).singleElement().asString()
                            .contains("sequence 'side_notes'", "application's h2 database",
                                    "seqgen.sequences.side_notes.initial-value").containsIgnoringCase("side_note");
                });
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = SideNote.class)
    static class Notes {
    }
}
