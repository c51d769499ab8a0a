package dev.seqgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.InMemorySequenceStore;
import dev.seqgen.testing.TestDatabase;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Series of a sequence ({@link SequenceRegistry#series}): one counter per key, each with the sequence's settings,
 * a row of its own named {@code name#key}, created on first use by whichever registry comes first.
 */
class SeriesTest {

    private final InMemorySequenceStore store = new InMemorySequenceStore();

    @Test
    void eachSeriesCountsOnItsOwnWithTheSequencesSettings() {
        SequenceSettings invoices = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10)
                .initialValue(100).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).sequence("invoices", invoices).build()) {
            Sequence acme2026 = registry.series("invoices", "acme/2026");
            assertThat(acme2026.nextValues(3)).containsExactly(100, 101, 102);
            assertThat(registry.series("invoices", "globex/2026").next()).as("another series").isEqualTo(100);
            assertThat(registry.series("invoices", "acme/2026")).as("one per key").isSameAs(acme2026);
            assertThat(acme2026.name()).isEqualTo("invoices#acme/2026");
            assertThat(acme2026.settings()).isEqualTo(invoices);
            assertThat(store.nextValue("invoices#acme/2026")).hasValue(110);
            assertThat(store.nextValue("invoices")).as("the sequence's own row is not used").isEmpty();
            assertThat(registry.openSeries("invoices")).containsOnlyKeys("acme/2026", "globex/2026");
            assertThat(registry.openSeries("orders")).isEmpty();
        }
    }

    @Test
    void keysAreCheckedAndNamedInTheError() {
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            assertThatThrownBy(() -> registry.series("invoices", "acme//2026"))
                    .isInstanceOf(SequenceConfigurationException.class)
                    .hasMessageContaining("series key of sequence 'invoices'").hasMessageContaining("'acme//2026'")
                    .hasMessageContaining("a part is empty");
            assertThatThrownBy(() -> registry.series("invoices", "acme#2026"))
                    .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("part 'acme#2026'");
            assertThatThrownBy(() -> registry.series("invoices", "x".repeat(56)))
                    .isInstanceOf(SequenceConfigurationException.class)
                    .hasMessageContaining("at most 55 characters");
            assertThatThrownBy(() -> SequenceRegistry.seriesKey(List.of("acme", "")))
                    .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("a part is empty");
            assertThat(SequenceRegistry.seriesKey(List.of("ACME S.p.A.", "2026-03", "ünïcode")))
                    .isEqualTo("ACME S.p.A./2026-03/ünïcode");
            assertThat(registry.sequences()).as("nothing opened by a refused key").isEmpty();
        }
        assertThat(store.nextValue("invoices#acme//2026")).as("nothing written").isEmpty();
    }

    @Test
    void aSequenceCountedInNativeSequencesHasNoSeries() {
        InMemorySequenceStore databaseSequences = new InMemorySequenceStore().kind(CounterKind.NATIVE_SEQUENCE);
        try (SequenceRegistry registry = SequenceRegistry.builder(databaseSequences).build()) {
            assertThatThrownBy(() -> registry.series("orders", "acme"))
                    .isInstanceOf(SequenceConfigurationException.class)
                    .hasMessageContaining("'sequences.orders.kind'").hasMessageContaining("numbered in series");
        }
    }

    /** Several JVMs (registries) start one new series at once: one row, no value twice. */
    @Test
    void registriesThatStartOneSeriesAtOnceMakeOneCounter() throws Exception {
        int registries = 4;
        List<SequenceRegistry> opened = new ArrayList<>();
        for (int i = 0; i < registries; i++) {
            opened.add(SequenceRegistry.builder(store).defaults(SequenceSettings.builder()
                    .strategy(Strategy.ASYNC_BATCH).blockSize(7).build()).build());
        }
        try {
            long[] values = Concurrently.run(16, thread -> {
                Sequence series = opened.get(thread % registries).series("orders", "tenant-" + (thread % 2));
                long[] taken = new long[500];
                for (int i = 0; i < taken.length; i++) {
                    // Two series: a value is unique within its series, so tag each with its series.
                    taken[i] = series.next() * 2 + thread % 2;
                }
                return taken;
            });
            Concurrently.assertUnique(values);
        } finally {
            opened.forEach(SequenceRegistry::close);
        }
    }

    /**
     * On real databases: registries (as JVMs) start two series at once from many threads with SYNC in their own
     * transactions, some rolled back: every series is gapless and its numbers unique.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void syncSeriesAreGaplessPerSeriesUnderManyThreadsAndRegistries(TestDatabase database) throws Exception {
        String table = TestDatabase.uniqueTable();
        int registries = 3;
        List<SequenceRegistry> opened = new ArrayList<>();
        try {
            for (int i = 0; i < registries; i++) {
                opened.add(SequenceRegistry.builder(JdbcSequenceStore.builder(database.dataSource()).table(table)
                        .build()).defaults(SequenceSettings.builder().strategy(Strategy.SYNC).build()).build());
            }
            long[] committed = Concurrently.run(6, thread -> {
                String key = "company " + (thread % 2) + "/2026";
                Sequence series = opened.get(thread % registries).series("invoices", key);
                List<Long> kept = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    try (Connection connection = database.dataSource().getConnection()) {
                        connection.setAutoCommit(false);
                        long value = series.nextInTransaction(connection);
                        if (i % 4 == 3) {
                            connection.rollback();
                        } else {
                            connection.commit();
                            kept.add(value * 2 + thread % 2);
                        }
                    }
                }
                return kept.stream().mapToLong(Long::longValue).toArray();
            });
            long[] sorted = Concurrently.assertUnique(committed);
            for (int series = 0; series < 2; series++) {
                int which = series;
                long[] numbers = java.util.Arrays.stream(sorted).filter(v -> v % 2 == which).map(v -> v / 2)
                        .toArray();
                assertThat(numbers).as("series %s: 3 threads x 30 commits", series).hasSize(90);
                Concurrently.assertContiguousFrom(1, numbers);
            }
        } finally {
            opened.forEach(SequenceRegistry::close);
            database.dropTable(table);
        }
    }
}
