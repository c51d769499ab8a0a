package dev.seqgen.boot.rowonce;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.KeySet;
import com.google.cloud.spanner.Mutation;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import com.google.cloud.spanner.spi.v1.SpannerInterceptorProvider;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.spanner.v1.CommitRequest;
import com.google.spanner.v1.ExecuteBatchDmlRequest;
import com.google.spanner.v1.ExecuteSqlRequest;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.autoconfigure.SeqgenSpannerAutoConfiguration;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.spanner.SpannerSequenceStore;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.MethodDescriptor;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * As {@link RowCreatedOnceTest}, with the sequence in the Cloud Spanner store on the emulator
 * ({@code SPANNER_EMULATOR_HOST}; skipped without it, failed when {@code SEQGEN_TEST_REQUIRE_DATABASES=true}): a
 * sequence configured by an annotation ({@code initialValue = 50000}) and by a property that tunes another of its
 * settings gets its row created once per start, at the annotation's initial value, whether the Hibernate generator
 * asks first or the starter's creation of configured sequences does (Hibernate kept off the database while
 * booting). The row-creating statements are counted where they leave for Spanner: a gRPC interceptor on the
 * application's {@link Spanner} client, which the store uses, sees every {@code INSERT} of the sequence's row
 * (as DML, batched DML or a mutation). The entities live in the same Spanner database, reached through the Spanner
 * JDBC driver and Hibernate's {@code SpannerDialect}.
 */
class RowCreatedOnceOnSpannerTest {

    private static final String SEQUENCE = "ticket_sale_seq";

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator(
            "CREATE TABLE seqgen_sale_ticket (id INT64 NOT NULL) PRIMARY KEY (id)");

    /** Empties the entities' table: the sequence of the next start would otherwise adopt its ids. */
    @AfterEach
    void deleteTheTickets() {
        if (emulator.client() != null) {
            emulator.client().write(List.of(Mutation.delete("seqgen_sale_ticket", KeySet.all())));
        }
    }

    @Test
    void theRowIsCreatedOnceAtTheAnnotationsInitialValue() {
        startAndCount(false);
    }

    @Test
    void theRowIsCreatedOnceAtTheAnnotationsInitialValueWhenTheStarterCreatesItFirst() {
        startAndCount(true);
    }

    private static void startAndCount(boolean noJdbcAtBoot) {
        // A table of its own per start: the store creates it, so the row is missing when the start begins.
        String table = "seqgen_t" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
        AtomicInteger inserts = new AtomicInteger();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        HibernateJpaAutoConfiguration.class, TransactionAutoConfiguration.class,
                        SeqgenSpannerAutoConfiguration.class, SeqgenAutoConfiguration.class))
                .withUserConfiguration(Entities.class)
                .withBean(Spanner.class, () -> countingSpanner(table, inserts))
                .withPropertyValues("seqgen.store=spanner", "seqgen.table=" + table, "seqgen.schema.initialize=always",
                        "seqgen.spanner.instance-id=" + emulator.instanceId(),
                        "seqgen.spanner.database-id=" + emulator.databaseId(),
                        "seqgen.spanner.operation-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s",
                        "seqgen.defaults.acquire-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s",
                        "seqgen.sequences." + SEQUENCE + ".adaptive.enabled=false",
                        "spring.datasource.url=jdbc:cloudspanner://" + emulator.host() + "/projects/"
                                + SpannerEmulator.PROJECT + "/instances/" + emulator.instanceId() + "/databases/"
                                + emulator.databaseId() + "?autoConfigEmulator=true",
                        "spring.datasource.driver-class-name=com.google.cloud.spanner.jdbc.JdbcDriver",
                        // Spanner's own DDL created the entities' table, as the application's migrations would.
                        "spring.jpa.hibernate.ddl-auto=none",
                        "spring.jpa.properties.hibernate.boot.allow_jdbc_metadata_access=" + !noJdbcAtBoot,
                        // Without JDBC access at boot Hibernate cannot find the dialect itself.
                        "spring.jpa.properties.hibernate.dialect=org.hibernate.dialect.SpannerDialect")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SequenceRegistry.class).store())
                            .isInstanceOf(SpannerSequenceStore.class);
                    List<Long> ids = new ArrayList<>();
                    persist(context, ids);
                    persist(context, ids);
                    assertThat(ids).as("the ids taken, the first at the annotation's initial value")
                            .startsWith(50000L, 50001L);
                    assertThat(inserts).as("creations of the sequence's row in this start").hasValue(1);
                });
    }

    /** A client of the emulator counting the statements that insert the sequence's row into the table. */
    private static Spanner countingSpanner(String table, AtomicInteger inserts) {
        return SpannerOptions.newBuilder()
                .setProjectId(SpannerEmulator.PROJECT)
                .setEmulatorHost(emulator.host())
                .setCredentials(NoCredentials.getInstance())
                .setInterceptorProvider(SpannerInterceptorProvider.createDefault()
                        .with(new RowInsertCounter(table, inserts)))
                .build()
                .getService();
    }

    /**
     * Persists a ticket in a transaction of its own, adding each id it was given to {@code ids}; an aborted
     * transaction (the emulator runs one read-write transaction at a time) is retried, as an application on
     * Spanner retries, with the next id.
     */
    private static void persist(AssertableApplicationContext context, List<Long> ids) {
        EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
        TransactionTemplate transactions = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
        ids.add(SpannerEmulator.retryingAborted(() -> transactions.execute(status -> {
            EntityManager entityManager = EntityManagerFactoryUtils.getTransactionalEntityManager(factory);
            SaleTicket ticket = new SaleTicket();
            entityManager.persist(ticket);
            return ticket.getId();
        })));
    }

    /**
     * Counts the requests sent to Spanner that insert the sequence's row into the table: DML whose SQL is an
     * {@code INSERT INTO <table>} with the sequence's name among its parameters (alone or in a batch), or a
     * commit carrying an insert mutation of the table whose values hold the name.
     */
    private static final class RowInsertCounter implements ClientInterceptor {

        private final String table;
        private final AtomicInteger inserts;

        RowInsertCounter(String table, AtomicInteger inserts) {
            this.table = table.toLowerCase(Locale.ROOT);
            this.inserts = inserts;
        }

        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options,
                Channel next) {
            return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                @Override
                public void sendMessage(Q message) {
                    inserts.addAndGet(rowInserts(message));
                    super.sendMessage(message);
                }
            };
        }

        private int rowInserts(Object message) {
            if (message instanceof ExecuteSqlRequest sql) {
                return insertsTheRow(sql.getSql(), sql.getParams()) ? 1 : 0;
            }
            if (message instanceof ExecuteBatchDmlRequest batch) {
                return (int) batch.getStatementsList().stream()
                        .filter(statement -> insertsTheRow(statement.getSql(), statement.getParams()))
                        .count();
            }
            if (message instanceof CommitRequest commit) {
                return (int) commit.getMutationsList().stream().filter(this::insertsTheRow).count();
            }
            return 0;
        }

        private boolean insertsTheRow(String sql, Struct params) {
            String lower = sql.strip().toLowerCase(Locale.ROOT);
            return lower.startsWith("insert") && lower.contains("into " + table + " ")
                    && params.getFieldsMap().values().stream()
                            .anyMatch(value -> SEQUENCE.equals(value.getStringValue()));
        }

        private boolean insertsTheRow(com.google.spanner.v1.Mutation mutation) {
            com.google.spanner.v1.Mutation.Write write = mutation.hasInsert() ? mutation.getInsert()
                    : mutation.hasInsertOrUpdate() ? mutation.getInsertOrUpdate() : null;
            return write != null && write.getTable().equalsIgnoreCase(table) && write.getValuesList().stream()
                    .flatMap(row -> row.getValuesList().stream()).map(Value::getStringValue).anyMatch(SEQUENCE::equals);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = SaleTicket.class)
    static class Entities {
    }
}
