package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.TestDatabase;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.Test;

/**
 * A Hibernate generator numbering in series holds none of them: once the registry has released its idle series,
 * nothing in seqgen (generator, service, registry) keeps their handles, and the next value of a released series
 * continues it without a gap. Time is the test's ticker; the release is the registry's {@code releaseIdleSeries()}.
 */
class SeriesHandlesReleaseTest {

    private static final String PREFIX = HibernateTesting.prefix("hshr_");
    private static final Duration IDLE = Duration.ofMinutes(10);
    private static final int COMPANIES = 200;
    private static final int YEARS = 5;

    @Test
    void aGeneratorThatUsedAThousandSeriesHoldsNoneOnceTheyAreReleased() {
        DataSource dataSource = TestDatabase.H2.dataSource();
        String seqgenTable = TestDatabase.uniqueTable();
        AtomicLong now = new AtomicLong();
        try (SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(dataSource)
                .table(seqgenTable).dedicatedConnection(true).build()).ticker(now::get).seriesIdleTimeout(IDLE)
                .build();
                SessionFactory factory = HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                        Map.of(SeqgenHibernate.REGISTRY, registry), SeriesInvoice.class)) {
            HibernateTesting.inTransaction(factory, session -> {
                for (int company = 0; company < COMPANIES; company++) {
                    for (int year = 0; year < YEARS; year++) {
                        session.persist(new SeriesInvoice("c" + company, LocalDate.of(2020 + year, 3, 1)));
                    }
                }
            });
            List<WeakReference<Sequence>> handles = new ArrayList<>();
            registry.openSeries("series_invoice_numbers").values().forEach(open -> handles.add(
                    new WeakReference<>(open)));
            assertThat(handles).hasSize(COMPANIES * YEARS);

            assertThat(registry.releaseIdleSeries()).as("used since the last look").isZero();
            now.addAndGet(IDLE.toNanos());
            assertThat(registry.releaseIdleSeries()).isEqualTo(COMPANIES * YEARS);

            assertThat(registry.openSeries("series_invoice_numbers")).isEmpty();
            assertThat(collected(handles)).as("handles no longer reachable after the release")
                    .isEqualTo(COMPANIES * YEARS);

            SeriesInvoice next = new SeriesInvoice("c7", LocalDate.of(2022, 6, 1));
            HibernateTesting.inTransaction(factory, session -> session.persist(next));
            assertThat(next.number()).as("the released series continues without a gap").isEqualTo(2L);
            assertThat(registry.openSeries("series_invoice_numbers")).containsOnlyKeys("c7/2022");
        }
    }

    /** How many of the handles the collector cleared, after full collections until all are or a few were run. */
    private static int collected(List<WeakReference<Sequence>> handles) {
        int cleared = 0;
        for (int round = 0; round < 10 && cleared < handles.size(); round++) {
            System.gc();
            cleared = (int) handles.stream().filter(handle -> handle.refersTo(null)).count();
        }
        return cleared;
    }
}
