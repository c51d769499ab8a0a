package dev.seqgen.sample.orders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.Strategy;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.jpa.test.autoconfigure.TestEntityManager;
import org.springframework.context.ApplicationContext;

/**
 * The JPA slice of the sample: {@code @DataJpaTest} imports seqgen's auto-configuration, so the
 * {@code seqgen.*} properties of {@code application.properties} apply as in the application (the order events'
 * {@code async} strategy), and the store creates its table in the slice's embedded database
 * ({@code seqgen.schema.initialize=embedded}, the default): the save below needs it.
 */
@DataJpaTest
class OrderRepositorySliceTest {

    @Autowired
    private OrderRepository orders;

    @Autowired
    private TestEntityManager entityManager;

    @Autowired
    private ApplicationContext context;

    @Test
    void theSliceAppliesTheSequenceStrategyOfApplicationProperties() {
        SequenceRegistry registry = context.getBean(SequenceRegistry.class);
        assertThat(registry.settingsFor("order_event").strategy()).isEqualTo(Strategy.ASYNC);

        Order order = new Order("slice", Instant.parse("2026-01-01T00:00:00Z"));
        order.record(OrderEvent.Type.CREATED, Instant.parse("2026-01-01T00:00:01Z"));
        order.record(OrderEvent.Type.INVOICED, Instant.parse("2026-01-01T00:00:02Z"));
        orders.saveAndFlush(order);
        entityManager.clear();

        assertThat(order.getId()).isNotNull();
        assertThat(order.getEvents()).extracting(OrderEvent::getId).doesNotContainNull();
        assertThat(registry.sequence("order_event").strategy()).isEqualTo(Strategy.ASYNC);
        long last = order.getEvents().get(1).getId();
        assertThat(registry.store().nextValue("order_event")).as("async: one value reserved per event")
                .hasValue(last + 1);
    }
}
