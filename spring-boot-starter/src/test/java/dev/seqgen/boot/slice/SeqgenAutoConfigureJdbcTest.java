package dev.seqgen.boot.slice;

import dev.seqgen.boot.slice.kits.KitConfiguration;
import dev.seqgen.boot.slice.kits.SliceKitAssertions;
import dev.seqgen.boot.slice.kits.SliceKitRepository;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureJdbc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * spring-data-examples' jdbc/basics pattern: a {@code @SpringBootTest} of a plain {@code @Configuration} that sets up
 * Spring Data JDBC itself, with {@code @AutoConfigureJdbc}. The slice imports seqgen's Spring Data JDBC support, so
 * the aggregates get seqgen's values, not the identity column's.
 */
@SpringBootTest(classes = KitConfiguration.class,
        properties = { SliceKitAssertions.SCHEMA, SliceKitAssertions.INITIAL_VALUE })
@AutoConfigureJdbc
class SeqgenAutoConfigureJdbcTest {

    @Autowired
    private SliceKitRepository kits;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aggregatesOfAPlainConfigurationGetSeqgensValues() {
        SliceKitAssertions.savedWithSeqgensValues(kits, jdbc);
    }
}
