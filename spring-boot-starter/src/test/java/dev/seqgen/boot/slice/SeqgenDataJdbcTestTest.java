package dev.seqgen.boot.slice;

import dev.seqgen.boot.slice.kits.SliceKit;
import dev.seqgen.boot.slice.kits.SliceKitAssertions;
import dev.seqgen.boot.slice.kits.SliceKitRepository;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.jdbc.core.JdbcTemplate;

/** The Spring Data JDBC slice, with Spring Boot's Spring Data JDBC: seqgen's values, not the identity column's. */
@DataJdbcTest(properties = { SliceKitAssertions.SCHEMA, SliceKitAssertions.INITIAL_VALUE })
class SeqgenDataJdbcTestTest {

    @Autowired
    private SliceKitRepository kits;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aggregatesGetSeqgensValues() {
        SliceKitAssertions.savedWithSeqgensValues(kits, jdbc);
    }

    @SpringBootConfiguration
    @AutoConfigurationPackage(basePackageClasses = SliceKit.class)
    static class Application {
    }
}
