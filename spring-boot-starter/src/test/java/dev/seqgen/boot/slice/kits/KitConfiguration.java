package dev.seqgen.boot.slice.kits;

import org.springframework.context.annotation.Configuration;
import org.springframework.data.jdbc.repository.config.AbstractJdbcConfiguration;
import org.springframework.data.jdbc.repository.config.EnableJdbcRepositories;

/**
 * Spring Data JDBC set up by the application, as spring-data-examples' jdbc/basics does: a plain
 * {@code @Configuration}, no auto-configuration of Spring Data JDBC.
 */
@Configuration(proxyBeanMethods = false)
@EnableJdbcRepositories
public class KitConfiguration extends AbstractJdbcConfiguration {
}
