package dev.seqgen.sample.jdbc;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An invoice service on Spring Data JDBC: invoices and their lines get seqgen ids, invoices a gapless number,
 * from {@code @SeqgenValue} alone (see README.md).
 */
@SpringBootApplication
public class InvoiceServiceApplication {

    /**
     * Starts the service.
     *
     * @param args Spring Boot's command line arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(InvoiceServiceApplication.class, args);
    }
}
