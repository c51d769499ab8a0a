package dev.seqgen.boot.slice;

import dev.seqgen.boot.slice.kits.SliceKit;
import dev.seqgen.boot.slice.kits.SliceKitAssertions;
import dev.seqgen.boot.slice.kits.SliceKitRepository;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/** A {@code @SpringBootTest} of a whole application: Spring Boot's Spring Data JDBC, seqgen's values. */
@SpringBootTest(properties = { SliceKitAssertions.SCHEMA, SliceKitAssertions.INITIAL_VALUE })
class SeqgenSpringBootTestTest {

    @Autowired
    private SliceKitRepository kits;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void aggregatesOfTheApplicationGetSeqgensValues() {
        SliceKitAssertions.savedWithSeqgensValues(kits, jdbc);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @AutoConfigurationPackage(basePackageClasses = SliceKit.class)
    static class Application {
    }
}
