package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.LogRecords;
import dev.seqgen.testing.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The INFO lines a plain Hibernate start-up writes about settings say only what the user set, and where: a
 * {@code seqgen.sequences.<name>.<key>} property by its name, never a default (built-in or
 * {@code seqgen.defaults.<key>}) as a value "configured" for the sequence.
 */
class StartUpSettingsLinesTest {

    private static final String PREFIX = HibernateTesting.prefix("sul_");

    private static final String TUNED = "seqgen: sequence 'tuned' (entity " + TunedTicket.class.getName()
            + ", id property 'id', sequence 'tuned'): ";

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    /** {@code @SeqgenGenerator(strategy = BATCH, initialValue = 100)} on {@link TunedTicket}. */
    @Test
    void aDefaultIsNeverCalledAValueConfiguredForTheSequence() {
        start(TunedTicket.class, Map.of("seqgen.defaults.block-size", "20",
                "seqgen.sequences.tuned.initial-value", "7000"));
        assertThat(linesAbout(TUNED)).containsExactly(TUNED
                + "seqgen.sequences.tuned.initial-value=7000 overrides the annotation's initialValue=100");
    }

    /**
     * A property set for the sequence wins over the annotation, the default's value too, and the line says so; a
     * tuning property overrides nothing (the annotations have no tuning), and the line does not name it.
     */
    @Test
    void aPropertyForTheSequenceEqualToTheDefaultOverridesTheAnnotation() {
        start(TunedTicket.class, Map.of("seqgen.sequences.tuned.strategy", "async-batch",
                "seqgen.sequences.tuned.initial-value", "1", "seqgen.sequences.tuned.block-size", "1000"));
        assertThat(linesAbout(TUNED)).containsExactly(TUNED
                + "seqgen.sequences.tuned.strategy=ASYNC_BATCH overrides the annotation's strategy=BATCH;"
                + " seqgen.sequences.tuned.initial-value=1 overrides the annotation's initialValue=100");
    }

    /**
     * A skip range set for a sequence whose key order the annotation makes bit-reversed: the registry's line shows
     * the range as set, not beside a key-order=SEQUENTIAL nobody set for the sequence.
     */
    @Test
    void theRegistryLineShowsWhatWasSetForASequence() {
        start(BitReversedKeysTest.SpreadOrder.class, Map.of("seqgen.sequences.spread_orders.skip-range", "1..1000"));
        List<String> registryLines = logs.messages(Level.INFO).stream()
                .filter(line -> line.startsWith("seqgen registry on")).toList();
        assertThat(registryLines).hasSize(1);
        assertThat(registryLines.get(0))
                .endsWith("; per sequence: spread_orders (seqgen.sequences.spread_orders.skip-range=1..1000)");
    }

    private void start(Class<?> entity, Map<String, Object> settings) {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(), PREFIX,
                seqgenTable, settings, entity)) {
            assertThat(sessionFactory).isNotNull();
        } finally {
            TestDatabase.H2.dropTable(seqgenTable);
        }
    }

    private List<String> linesAbout(String start) {
        return logs.messages(Level.INFO).stream().filter(line -> line.startsWith(start)).distinct().toList();
    }
}
