package dev.seqgen.boot.slice.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManager;

import java.util.Arrays;
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

    @SpringBootConfiguration
    @AutoConfigurationPackage
    static class Application {
    }
}
