package dev.seqgen.boot.adoption;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

/**
 * The existing application, as a user has it: Spring Boot, Spring Data JPA's auto-configuration, one entity.
 * {@link #main} starts it (in a second JVM), creates customers from eight threads and prints their ids on one
 * line: {@code ids 51,52,...}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@AutoConfigurationPackage(basePackageClasses = Customer.class)
public class AdoptingApplication {

    static final int THREADS = 8;
    static final int CUSTOMERS_PER_THREAD = 10;

    public static void main(String[] args) throws Exception {
        try (ConfigurableApplicationContext context = SpringApplication.run(AdoptingApplication.class, args)) {
            System.out.println("ids " + createCustomers(context).stream().map(String::valueOf)
                    .collect(Collectors.joining(",")));
        }
    }

    /** Creates {@link #THREADS} × {@link #CUSTOMERS_PER_THREAD} customers, one transaction each; their ids. */
    static List<Integer> createCustomers(ConfigurableApplicationContext context) throws Exception {
        EntityManagerFactory entityManagerFactory = context.getBean(EntityManagerFactory.class);
        TransactionTemplate transactions = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<List<Integer>>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    List<Integer> ids = new ArrayList<>();
                    for (int i = 0; i < CUSTOMERS_PER_THREAD; i++) {
                        Customer customer = new Customer("customer " + thread + "." + i);
                        transactions.executeWithoutResult(status -> {
                            EntityManager entityManager =
                                    EntityManagerFactoryUtils.getTransactionalEntityManager(entityManagerFactory);
                            entityManager.persist(customer);
                        });
                        ids.add(customer.id());
                    }
                    return ids;
                }));
            }
            List<Integer> all = new ArrayList<>();
            for (Future<List<Integer>> future : futures) {
                all.addAll(future.get());
            }
            return all;
        } finally {
            pool.shutdown();
        }
    }
}
