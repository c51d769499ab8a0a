package dev.seqgen.boot.slice.jdbcbasics;

import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.jdbc.repository.config.AbstractJdbcConfiguration;
import org.springframework.data.jdbc.repository.config.EnableJdbcRepositories;
import org.springframework.data.relational.core.mapping.event.BeforeConvertEvent;

/**
 * jdbc/basics' configuration with seqgen: Spring Data JDBC set up by hand, and a listener of
 * {@code BeforeConvertEvent} that copies a lego set's id into its manual. The id is seqgen's now; the listener that
 * assigned ids from a counter is gone.
 */
@Configuration(proxyBeanMethods = false)
@EnableJdbcRepositories
public class AggregateConfiguration extends AbstractJdbcConfiguration {

    @Bean
    ApplicationListener<BeforeConvertEvent<?>> manualIds() {
        return event -> {
            if (event.getEntity() instanceof LegoSet legoSet && legoSet.getManual() != null) {
                legoSet.getManual().setId((long) legoSet.getId());
            }
        };
    }
}
