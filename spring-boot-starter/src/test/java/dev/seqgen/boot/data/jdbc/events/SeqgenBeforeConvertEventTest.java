package dev.seqgen.boot.data.jdbc.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.data.jdbc.SeqgenDataJdbcAutoConfiguration;
import dev.seqgen.testing.TestDatabase;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;
import org.springframework.data.relational.core.mapping.event.BeforeConvertEvent;
import org.springframework.data.relational.core.mapping.event.BeforeSaveEvent;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Where the application sees seqgen's values of Spring Data JDBC aggregates, as docs/spring-data-jdbc.md says: a
 * mutable aggregate holds them from its {@code BeforeConvertEvent} on, before the application's listeners of it (one
 * copies the kit's id into its manual, as spring-data-examples' jdbc/basics does); an immutable one (a record) from
 * seqgen's {@code BeforeConvertCallback} on, which runs before the application's callbacks. Each value is drawn once.
 */
class SeqgenBeforeConvertEventTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                    TransactionAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class,
                    SeqgenAutoConfiguration.class, SeqgenDataJdbcAutoConfiguration.class))
            .withUserConfiguration(Application.class);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aListenerOfBeforeConvertEventSeesTheIdOfAMutableAggregateAndCopiesItIntoAChild(TestDatabase database) {
        run(database, context -> {
            Application.Seen seen = context.getBean(Application.Seen.class);
            EventKitRepository kits = context.getBean(EventKitRepository.class);
            EventKit saved = kits.save(new EventKit("car", new EventKitManual("put the pieces together")));

            assertThat(seen.beforeConvert).as("the kit's id and number in the BeforeConvertEvent")
                    .containsExactly(List.of(saved.getId(), saved.getNumber()));
            assertThat(saved.getId()).isNotNull();
            assertThat(saved.getNumber()).isEqualTo(1);
            assertThat(saved.getManual().getId()).as("copied by the listener").isEqualTo(saved.getId());
            assertThat(kits.findById(saved.getId()).orElseThrow().getManual().getId()).isEqualTo(saved.getId());
            assertThat(nextValue(context, "seqgen_ev_kit_numbers")).as("the number drawn once").isEqualTo(2);

            List<EventKit> three = inTransaction(context, () -> kits.saveAll(List.of(new EventKit("a", new EventKitManual("a")),
                    new EventKit("b", new EventKitManual("b")), new EventKit("c", null))));
            assertThat(three).extracting(EventKit::getNumber).containsExactly(2L, 3L, 4L);
            assertThat(three.subList(0, 2)).allSatisfy(kit -> assertThat(kit.getManual().getId()).isEqualTo(kit.getId()));
            assertThat(seen.beforeConvert.subList(1, 4)).extracting(idAndNumber -> idAndNumber.get(1))
                    .containsExactly(2L, 3L, 4L);
            assertThat(nextValue(context, "seqgen_ev_kit_numbers")).as("each number drawn once").isEqualTo(5);
            assertThat(context.getBean(SequenceRegistry.class).sequences().stream()
                    .filter(sequence -> sequence.name().equals("seqgen_ev_kit_numbers")).findFirst().orElseThrow()
                    .stats().reservations()).as("one increment for the save, one for the saveAll").isEqualTo(2);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void anImmutableAggregateHoldsItsIdFromSeqgensCallbackOn(TestDatabase database) {
        run(database, context -> {
            Application.Seen seen = context.getBean(Application.Seen.class);
            EventVoucher saved = context.getBean(EventVoucherRepository.class).save(new EventVoucher(null, "ten percent"));

            assertThat(saved.id()).isNotNull();
            assertThat(seen.voucherAtBeforeConvertEvent).as("the event carries the record as the application passed it")
                    .containsExactly("null");
            assertThat(seen.voucherAtBeforeConvertCallback).as("the application's callback runs after seqgen's")
                    .containsExactly(String.valueOf(saved.id()));
            assertThat(seen.voucherAtBeforeSaveEvent).containsExactly(String.valueOf(saved.id()));
            assertThat(nextValue(context, "seqgen_ev_vouchers")).as("the id drawn once, from a block")
                    .isGreaterThan(saved.id());
        });
    }

    private void run(TestDatabase database, ContextTest test) {
        dropTables(database);
        database.execute("CREATE TABLE event_kit (id BIGINT NOT NULL PRIMARY KEY, number BIGINT NOT NULL UNIQUE,"
                + " name VARCHAR(100))");
        database.execute("CREATE TABLE event_kit_manual (id BIGINT NOT NULL PRIMARY KEY, event_kit BIGINT NOT NULL,"
                + " text VARCHAR(100))");
        database.execute("CREATE TABLE event_voucher (id BIGINT NOT NULL PRIMARY KEY, note VARCHAR(100))");
        String table = TestDatabase.uniqueTable();
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        try {
            contextRunner.withPropertyValues("spring.datasource.url=" + shared.getJdbcUrl(),
                    "spring.datasource.username=" + shared.getUsername(),
                    "spring.datasource.password=" + (shared.getPassword() == null ? "" : shared.getPassword()),
                    "seqgen.table=" + table, "seqgen.schema.initialize=always").run(context -> {
                        assertThat(context).hasNotFailed();
                        test.run(context);
                    });
        } finally {
            database.dropTable(table);
            dropTables(database);
        }
    }

    private static void dropTables(TestDatabase database) {
        database.dropTable("event_kit_manual");
        database.dropTable("event_kit");
        database.dropTable("event_voucher");
    }

    private static long nextValue(AssertableApplicationContext context, String sequence) {
        return context.getBean(SequenceRegistry.class).store().nextValue(sequence).orElseThrow();
    }

    private static <T> T inTransaction(AssertableApplicationContext context, java.util.function.Supplier<T> work) {
        return new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).execute(status -> work.get());
    }

    @FunctionalInterface
    private interface ContextTest {
        void run(AssertableApplicationContext context) throws Exception;
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = EventKit.class)
    static class Application {

        /** What the application's listeners and callbacks saw. */
        static final class Seen {
            final List<List<Long>> beforeConvert = new CopyOnWriteArrayList<>();
            final List<String> voucherAtBeforeConvertEvent = new CopyOnWriteArrayList<>();
            final List<String> voucherAtBeforeConvertCallback = new CopyOnWriteArrayList<>();
            final List<String> voucherAtBeforeSaveEvent = new CopyOnWriteArrayList<>();

            @EventListener
            void beforeSave(BeforeSaveEvent<?> event) {
                if (event.getEntity() instanceof EventVoucher voucher) {
                    voucherAtBeforeSaveEvent.add(String.valueOf(voucher.id()));
                }
            }
        }

        @Bean
        Seen seen() {
            return new Seen();
        }

        /** As jdbc/basics: a new kit's id copied into its manual, in a listener of BeforeConvertEvent. */
        @Bean
        ApplicationListener<BeforeConvertEvent<?>> copyKitIdIntoManual(Seen seen) {
            return event -> {
                if (event.getEntity() instanceof EventKit kit) {
                    seen.beforeConvert.add(java.util.Arrays.asList(kit.getId(), kit.getNumber()));
                    if (kit.getManual() != null) {
                        kit.getManual().setId(kit.getId());
                    }
                }
                if (event.getEntity() instanceof EventVoucher voucher) {
                    seen.voucherAtBeforeConvertEvent.add(String.valueOf(voucher.id()));
                }
            };
        }

        @Bean
        BeforeConvertCallback<EventVoucher> voucherCallback(Seen seen) {
            return voucher -> {
                seen.voucherAtBeforeConvertCallback.add(String.valueOf(voucher.id()));
                return voucher;
            };
        }
    }
}
