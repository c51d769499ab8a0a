package dev.seqgen.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The order service against a PostgreSQL container, for trying a real database where a Docker engine runs:
 * {@code ./mvnw -q -B -pl samples/order-service spring-boot:test-run}. Testcontainers starts the container;
 * {@link ServiceConnection} points {@code spring.datasource.*} at it, overriding the profile's URL.
 */
public final class TestOrderServiceApplication {

    private TestOrderServiceApplication() {
    }

    public static void main(String[] args) {
        SpringApplication.from(OrderServiceApplication::main)
                .with(PostgresContainer.class)
                .withAdditionalProfiles("postgres")
                .run(args);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class PostgresContainer {

        @Bean
        @ServiceConnection
        PostgreSQLContainer postgres() {
            return new PostgreSQLContainer("postgres:17-alpine");
        }
    }
}
