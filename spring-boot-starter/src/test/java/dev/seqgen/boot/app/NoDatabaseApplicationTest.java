package dev.seqgen.boot.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.spi.SequenceStore;

import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationContext;

/**
 * A test context without a DataSource, a Spanner client or a store (the DataSource auto-configuration
 * excluded, as tests of the web layer do): it starts, and seqgen backs off with its health indicator, endpoint
 * and metrics.
 */
@SpringBootTest(webEnvironment = WebEnvironment.NONE, properties = "spring.autoconfigure.exclude="
        + "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
class NoDatabaseApplicationTest {

    @Autowired
    private ApplicationContext context;

    @Test
    void startsWithoutADataSourceAndSeqgenBacksOff() {
        assertThat(context.getBeanNamesForType(DataSource.class)).isEmpty();
        assertThat(context.getBeanNamesForType(SequenceStore.class)).isEmpty();
        assertThat(context.getBeanNamesForType(SequenceRegistry.class)).isEmpty();
        assertThat(context.containsBean("seqgenHealthIndicator")).isFalse();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
