package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.event.service.spi.EventListenerRegistry;
import org.hibernate.event.spi.EventType;
import org.hibernate.service.spi.ServiceRegistryImplementor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

/**
 * The flush listener is registered only when a SYNC number that reserves at flush exists, once, whichever comes
 * second: the session factory's integration (its event listeners handed to the service) or the first such number
 * configured ({@code numbersAtFlush}). Hibernate creates the generators before or after it integrates depending on
 * its release and bootstrap, so both orders are driven here by hand, then seen on real session factories.
 */
class FlushListenerRegistrationTest {

    private StandardServiceRegistry serviceRegistry;
    private SeqgenRegistryService service;
    /** The event types the listener was placed before Hibernate's own listeners of, in order. */
    private final List<EventType<?>> prepended = new ArrayList<>();
    private final EventListenerRegistry eventListeners = (EventListenerRegistry) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {EventListenerRegistry.class}, (proxy, method, args) -> {
                if (method.getName().equals("prependListeners")) {
                    prepended.add((EventType<?>) args[0]);
                    assertThat((Object[]) args[1]).singleElement().isInstanceOf(FlushReservationListener.class);
                    return null;
                }
                throw new UnsupportedOperationException(method.getName());
            });

    @BeforeEach
    void service() {
        serviceRegistry = new StandardServiceRegistryBuilder().build();
        service = new SeqgenRegistryService(Map.of(), (ServiceRegistryImplementor) serviceRegistry);
    }

    @AfterEach
    void close() {
        StandardServiceRegistryBuilder.destroy(serviceRegistry);
    }

    @Test
    void integratedFirstThenTheFirstSyncNumberAtFlushRegistersTheListenerOnce() {
        service.listenTo(eventListeners);
        assertThat(prepended).as("no SYNC number at flush yet").isEmpty();

        FlushReservations reservations = service.numbersAtFlush();
        assertThat(prepended).containsExactly(EventType.FLUSH, EventType.AUTO_FLUSH,
                EventType.PRE_COLLECTION_REMOVE, EventType.PRE_DELETE, EventType.PRE_INSERT);

        assertThat(service.numbersAtFlush()).as("the second number's").isSameAs(reservations);
        assertThat(prepended).as("registered once").hasSize(5);
    }

    @Test
    void theFirstSyncNumberAtFlushFirstThenIntegrationRegistersTheListenerOnce() {
        FlushReservations reservations = service.numbersAtFlush();
        assertThat(prepended).as("no event listeners yet").isEmpty();

        service.listenTo(eventListeners);
        assertThat(prepended).containsExactly(EventType.FLUSH, EventType.AUTO_FLUSH,
                EventType.PRE_COLLECTION_REMOVE, EventType.PRE_DELETE, EventType.PRE_INSERT);

        assertThat(service.numbersAtFlush()).isSameAs(reservations);
        service.listenTo(eventListeners);
        assertThat(prepended).as("registered once").hasSize(5);
    }

    @Test
    void withoutASyncNumberAtFlushThereIsNoListener() {
        service.listenTo(eventListeners);
        service.listenTo(eventListeners);
        assertThat(prepended).isEmpty();
    }

    @Test
    void aSessionFactoryWithIdsOnlyHasNoFlushListenerOfSeqgens() {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(),
                HibernateTesting.prefix("flr_"), seqgenTable, Map.of(), DefaultTicket.class)) {
            assertThat(seqgenListeners(sessionFactory, EventType.FLUSH)).isZero();
            assertThat(seqgenListeners(sessionFactory, EventType.PRE_INSERT)).isZero();
        } finally {
            TestDatabase.H2.dropTable(seqgenTable);
        }
    }

    @Test
    void aSessionFactoryWithASyncNumberAtFlushHasOneOnEachEventItWatches() {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(),
                HibernateTesting.prefix("flr_"), seqgenTable, Map.of(), NumberedInvoice.class)) {
            for (EventType<?> type : List.of(EventType.FLUSH, EventType.AUTO_FLUSH, EventType.PRE_COLLECTION_REMOVE,
                    EventType.PRE_DELETE, EventType.PRE_INSERT)) {
                assertThat(seqgenListeners(sessionFactory, type)).as(type.eventName()).isOne();
            }
        } finally {
            TestDatabase.H2.dropTable(seqgenTable);
        }
    }

    private static long seqgenListeners(SessionFactory sessionFactory, EventType<?> type) {
        EventListenerRegistry registry = sessionFactory.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                .requireService(EventListenerRegistry.class);
        return StreamSupport.stream(registry.getEventListenerGroup(type).listeners().spliterator(), false)
                .filter(FlushReservationListener.class::isInstance).count();
    }
}
