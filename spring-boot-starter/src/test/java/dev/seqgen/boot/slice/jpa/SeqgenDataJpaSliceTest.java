package dev.seqgen.boot.slice.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManager;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.event.service.spi.EventListenerRegistry;
import org.hibernate.event.spi.EventType;
import org.hibernate.event.spi.PostInsertEvent;
import org.hibernate.event.spi.PostInsertEventListener;
import org.hibernate.event.spi.PreInsertEventListener;
import org.hibernate.persister.entity.EntityPersister;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The Spring Data JPA slice imports seqgen's auto-configuration: the entity's id and number come from the registry
 * the slice's {@code seqgen.*} properties configure, in the slice's embedded database. And where Hibernate sets
 * them, as docs/hibernate.md says: the id at {@code persist()}, before {@code @PrePersist}; the number at the
 * insert (the flush), before {@code @PostPersist}.
 */
@DataJpaTest(properties = { "seqgen.sequences.slice_orders.strategy=batch",
        "seqgen.sequences.slice_orders.block-size=10" })
class SeqgenDataJpaSliceTest {

    @Autowired
    private EntityManager entityManager;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void theEntityGetsItsIdAndNumberFromTheSlicesRegistry() {
        SliceOrder order = new SliceOrder();
        entityManager.persist(order);
        entityManager.flush();
        assertThat(order.getId()).as("from the block of 10 (the other test's rolled-back id is not reused)")
                .isBetween(1L, 10L);
        assertThat(order.getNumber()).as("gapless: the other test's number was rolled back").isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT next_value FROM seqgen_sequences WHERE name = 'slice_orders'",
                Long.class)).as("BATCH, a block of 10, as the slice's properties say").isEqualTo(11);
        assertThat(jdbc.queryForObject("SELECT next_value FROM seqgen_sequences WHERE name = 'slice_order_numbers'",
                Long.class)).as("the gapless number's row moved in the test's transaction").isEqualTo(2);
    }

    @Test
    void theIdIsSetBeforePrePersistAndTheNumberBeforePostPersist() {
        SliceOrder order = new SliceOrder();
        entityManager.persist(order);
        assertThat(order.getId()).as("the id once persist() returns").isNotNull();
        assertThat(order.seenAtPrePersist()).as("@PrePersist runs after the id generator, long before the insert")
                .containsExactly(Arrays.asList(order.getId(), null));
        assertThat(order.getNumber()).as("no number before the flush").isNull();
        assertThat(order.seenAtPostPersist()).as("@PostPersist waits for the insert").isEmpty();

        entityManager.flush();
        assertThat(order.seenAtPostPersist()).as("@PostPersist, after the insert, sees both")
                .containsExactly(Arrays.asList(order.getId(), order.getNumber()));
        assertThat(order.getNumber()).isNotNull();
    }

    @Test
    void hibernatesPreInsertEventSeesNoNumberAndItsPostInsertEventSeesIt() {
        List<String> seen = new CopyOnWriteArrayList<>();
        EventListenerRegistry listeners = entityManager.getEntityManagerFactory().unwrap(SessionFactoryImplementor.class)
                .getServiceRegistry().requireService(EventListenerRegistry.class);
        PreInsertEventListener preInsert = event -> {
            if (event.getEntity() instanceof SliceOrder order) {
                seen.add("pre-insert id=" + order.getId() + " number=" + order.getNumber() + " state.number="
                        + event.getState()[numberIndex(event.getPersister().getPropertyNames())]);
            }
            return false;
        };
        PostInsertEventListener postInsert = new PostInsertEventListener() {
            @Override
            public void onPostInsert(PostInsertEvent event) {
                if (event.getEntity() instanceof SliceOrder order) {
                    seen.add("post-insert id=" + order.getId() + " number=" + order.getNumber() + " state.number="
                            + event.getState()[numberIndex(event.getPersister().getPropertyNames())]);
                }
            }

            @Override
            public boolean requiresPostCommitHandling(EntityPersister persister) {
                return false;
            }
        };
        listeners.appendListeners(EventType.PRE_INSERT, preInsert);
        listeners.appendListeners(EventType.POST_INSERT, postInsert);

        SliceOrder order = new SliceOrder();
        entityManager.persist(order);
        entityManager.flush();
        assertThat(seen).containsExactly(
                "pre-insert id=" + order.getId() + " number=null state.number=null",
                "post-insert id=" + order.getId() + " number=" + order.getNumber() + " state.number="
                        + order.getNumber());
    }

    private static int numberIndex(String[] properties) {
        return Arrays.asList(properties).indexOf("number");
    }

    @SpringBootConfiguration
    @AutoConfigurationPackage
    static class Application {
    }
}
