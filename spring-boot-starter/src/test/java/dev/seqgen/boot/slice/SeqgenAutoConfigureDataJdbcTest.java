package dev.seqgen.boot.slice;

import dev.seqgen.boot.slice.kits.KitConfiguration;
import dev.seqgen.boot.slice.kits.SliceKitAssertions;
import dev.seqgen.boot.slice.kits.SliceKitRepository;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.AutoConfigureDataJdbc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * spring-data-examples' jdbc/basics {@code AggregateTests} pattern: a {@code @SpringBootTest} of a plain
 * {@code @Configuration} with {@code @AutoConfigureDataJdbc}. The aggregates get seqgen's values.
 */
@SpringBootTest(classes = KitConfiguration.class,
        properties = { SliceKitAssertions.SCHEMA, SliceKitAssertions.INITIAL_VALUE })
@AutoConfigureDataJdbc
class SeqgenAutoConfigureDataJdbcTest {

    @Autowired
    private SliceKitRepository kits;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aggregatesOfAPlainConfigurationGetSeqgensValues() {
        SliceKitAssertions.savedWithSeqgensValues(kits, jdbc);
    }
}
