package dev.seqgen.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An order service whose ids each come from the seqgen strategy that suits them:
 * orders from {@code async-batch} (throughput), order lines from {@code batch}, invoice numbers from
 * {@code sync} (gapless, taken in the invoice's own transaction) and order events from whatever
 * {@code seqgen.sequences.order_event.*} says (the entity names no strategy).
 *
 * <p>Run on embedded H2: {@code ./mvnw -q -B -pl samples/order-service spring-boot:run}; on a PostgreSQL or
 * MariaDB server: add {@code -Dspring-boot.run.profiles=postgres} (or {@code mariadb}); on Cloud Spanner
 * (the emulator by default), through Hibernate and the Spanner JDBC driver: {@code spanner}.
 */
@SpringBootApplication
public class OrderServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrderServiceApplication.class, args);
    }
}
