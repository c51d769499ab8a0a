package dev.seqgen.boot.slice.jdbcbasics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureJdbc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * spring-data-examples' jdbc/basics {@code AggregateTests} with seqgen, changed only as docs/spring-data-jdbc.md
 * says: {@code @SeqgenValue} on the id, no listener of its own assigning ids. A {@code @SpringBootTest} of the plain
 * configuration with {@code @AutoConfigureJdbc} serves the ids, and the {@code BeforeConvertEvent} listener that copies
 * a new set's id into its manual sees it (it saw 0, and the manual's insert failed, before both fixes).
 */
@SpringBootTest(classes = AggregateConfiguration.class, properties = {
        "spring.sql.init.schema-locations=classpath:dev/seqgen/boot/slice/jdbcbasics/schema.sql",
        "seqgen.sequences.lego_set.initial-value=1000" })
@AutoConfigureJdbc
class JdbcBasicsAggregateTest {

    @Autowired
    private LegoSetRepository repository;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void exerciseSomewhatComplexEntity() {
        LegoSet smallCar = new LegoSet("Small Car 01");
        smallCar.setManual(new Manual("Just put all the pieces together in the right order"));
        repository.save(smallCar);
        assertThat(smallCar.getId()).as("seqgen's, not the identity column's").isEqualTo(1000);
        assertThat(manualIds()).containsExactly(1000L);
        assertThat(manualText()).isEqualTo("Just put all the pieces together in the right order");

        smallCar.getManual().setText("Just make it so it looks like a car.");
        repository.save(smallCar);
        assertThat(manualText()).isEqualTo("Just make it so it looks like a car.");

        smallCar.setManual(new Manual("One last attempt: Just build a car! Ok?"));
        repository.save(smallCar);
        assertThat(manualIds()).containsExactly(1000L);
        assertThat(manualText()).isEqualTo("One last attempt: Just build a car! Ok?");
        assertThat(repository.findAll()).extracting(LegoSet::getId).containsExactly(1000);
    }

    private java.util.List<Long> manualIds() {
        return jdbc.queryForList("SELECT id FROM manual", Long.class);
    }

    private String manualText() {
        return repository.findById(1000).orElseThrow().getManual().getText();
    }
}
