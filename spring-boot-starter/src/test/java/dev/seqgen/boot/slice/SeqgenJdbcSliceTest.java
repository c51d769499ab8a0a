package dev.seqgen.boot.slice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.boot.autoconfigure.SequenceRegistryCustomizer;
import dev.seqgen.boot.slice.kits.KitConfiguration;
import dev.seqgen.boot.slice.kits.SliceKitAssertions;
import dev.seqgen.boot.slice.kits.SliceKitRepository;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The JDBC slice imports seqgen's auto-configuration: {@code seqgen.*} properties and the application's
 * customizers apply, and the slice's embedded database gets the sequence table. It imports seqgen's Spring Data JDBC
 * support too: aggregates of a Spring Data JDBC set up by the application's own {@code @Configuration} get seqgen's
 * values.
 */
@JdbcTest(properties = { "seqgen.sequences.orders.strategy=batch", "seqgen.sequences.orders.block-size=10",
        SliceKitAssertions.SCHEMA, SliceKitAssertions.INITIAL_VALUE })
class SeqgenJdbcSliceTest {

    @Autowired
    private SequenceRegistry registry;

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private SliceKitRepository kits;

    @Test
    void aggregatesOfTheApplicationsSpringDataJdbcGetSeqgensValues() {
        SliceKitAssertions.savedWithSeqgensValues(kits, jdbc);
    }

    @Test
    void theSliceHasSeqgenConfiguredByItsPropertiesAndCustomizers() {
        assertThat(registry.settingsFor("orders").strategy()).isEqualTo(Strategy.BATCH);
        assertThat(registry.settingsFor("invoices").strategy()).as("from the customizer").isEqualTo(Strategy.SYNC);
        assertThat(registry.sequence("orders").nextValues(2)).containsExactly(1, 2);
        assertThat(jdbc.queryForObject("SELECT next_value FROM seqgen_sequences WHERE name = 'orders'", Long.class))
                .as("a block of 10 reserved").isEqualTo(11);
    }

    @SpringBootConfiguration
    @Import(KitConfiguration.class)
    static class Application {

        @Bean
        SequenceRegistryCustomizer invoicesAreSync() {
            return builder -> builder.sequence("invoices",
                    SequenceSettings.defaults().toBuilder().strategy(Strategy.SYNC).build());
        }
    }
}
