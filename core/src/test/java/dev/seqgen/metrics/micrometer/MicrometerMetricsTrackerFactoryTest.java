package dev.seqgen.metrics.micrometer;

import dev.seqgen.testing.Concurrently;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.spi.SequenceStoreException;
import dev.seqgen.testing.GatedStore;
import dev.seqgen.testing.InMemorySequenceStore;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MicrometerMetricsTrackerFactoryTest {

    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final InMemorySequenceStore store = new InMemorySequenceStore();
    private final SequenceRegistry registry = SequenceRegistry.builder(store)
            .defaults(SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build())
            .metrics(new MicrometerMetricsTrackerFactory(meters))
            .build();

    @AfterEach
    void close() {
        registry.close();
    }

    /**
     * A sequence numbered in series has one gauge of its open series, tagged by the sequence alone, and its series
     * share the sequence's meters: tagged by the sequence's name, never by a key (a tag per tenant or year would be
     * unbounded).
     */
    @Test
    void aSequencesSeriesAreCountedByOneGaugeAndShareTheSequencesMeters() {
        registry.series("invoices", "acme/2026").next();
        registry.series("invoices", "acme/2025").next();
        registry.series("invoices", "globex/2026").nextValues(2);
        registry.series("credit_notes", "acme").next();

        assertThat(meters.get(MicrometerMetricsTrackerFactory.SERIES_OPEN).tag("sequence", "invoices").gauge()
                .value()).isEqualTo(3);
        assertThat(meters.get(MicrometerMetricsTrackerFactory.SERIES_OPEN).tag("sequence", "credit_notes").gauge()
                .value()).isEqualTo(1);
        assertThat(meters.getMeters()).allSatisfy(meter -> assertThat(meter.getId().getTag("sequence"))
                .as(meter.getId().toString()).doesNotContain("#"));
        assertThat(meters.get("seqgen.ids.issued").tag("sequence", "invoices").functionCounter().count())
                .as("the values of its three series").isEqualTo(4);
        assertThat(meters.get("seqgen.reservations").tag("sequence", "invoices").tag("result", "success").timer()
                .count()).as("one block per series").isEqualTo(3);
        assertThat(meters.get("seqgen.block.remaining").tag("sequence", "invoices").gauge().value()).isEqualTo(26);
        assertThat(meters.get("seqgen.ids.issued").tag("sequence", "credit_notes").functionCounter().count())
                .isEqualTo(1);
        assertThat(registry.sequences()).as("series are listed by their sequence").isEmpty();
        assertThat(registry.seriesSequences()).containsExactly("credit_notes", "invoices");

        registry.close();
        assertThat(meters.find("seqgen.ids.issued").tag("sequence", "invoices").functionCounter())
                .as("removed at the registry's close").isNull();
    }

    /**
     * A released idle series leaves the gauge of open series, and its values stay in the sequence's counters: a
     * counter never goes down. The capacity gauge is that of the series nearest its maximum.
     */
    @Test
    void aReleasedSeriesStaysInTheCountersAndLeavesTheGauge() {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        MeterRegistry own = new SimpleMeterRegistry();
        try (SequenceRegistry idle = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).maxValue(100).build())
                .metrics(new MicrometerMetricsTrackerFactory(own)).ticker(now::get)
                .seriesIdleTimeout(Duration.ofMinutes(1)).build()) {
            idle.series("invoices", "acme").nextValues(3);
            idle.series("invoices", "globex").next();
            idle.releaseIdleSeries();
            now.addAndGet(Duration.ofMinutes(1).toNanos());
            idle.series("invoices", "globex").next();
            assertThat(idle.releaseIdleSeries()).isEqualTo(1);

            assertThat(own.get(MicrometerMetricsTrackerFactory.SERIES_OPEN).tag("sequence", "invoices").gauge()
                    .value()).isEqualTo(1);
            assertThat(own.get("seqgen.ids.issued").tag("sequence", "invoices").functionCounter().count())
                    .as("acme's 3 values stay counted").isEqualTo(5);
            assertThat(own.get("seqgen.capacity.used").tag("sequence", "invoices").gauge().value())
                    .as("the series that reserved highest: [1, 11) of 1..100").isEqualTo(0.1);
        }
    }

    /**
     * One registry, two kinds of counter: each sequence's meters carry the kind and the name of the store that
     * serves it, {@code native-sequence} for ids on a database sequence beside {@code table} for gapless numbers.
     */
    @Test
    void tagsEachSequenceWithTheCounterKindAndStoreThatServeIt() {
        String prefix = dev.seqgen.testing.TestDatabase.uniqueTable() + "_";
        dev.seqgen.jdbc.NativeSequenceStore nativeStore = dev.seqgen.jdbc.NativeSequenceStore
                .builder(dev.seqgen.testing.TestDatabase.H2.dataSource()).prefix(prefix).build();
        SequenceSettings batch = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build();
        try (SequenceRegistry mixed = SequenceRegistry.builder(store).store(nativeStore).defaults(batch)
                .metrics(new MicrometerMetricsTrackerFactory(meters)).build()) {
            mixed.sequence("orders", batch.toBuilder().kind(dev.seqgen.CounterKind.NATIVE_SEQUENCE).build()).next();
            mixed.sequence("invoices", batch.toBuilder().strategy(Strategy.SYNC).build());

            assertThat(meters.get("seqgen.ids.issued").tag("sequence", "orders").functionCounter().getId().getTags())
                    .contains(Tag.of("kind", "native-sequence"), Tag.of("store", nativeStore.name()));
            assertThat(meters.get("seqgen.ids.issued").tag("sequence", "invoices").functionCounter().getId()
                    .getTags()).contains(Tag.of("kind", "table"), Tag.of("store", "memory"));
        } finally {
            dev.seqgen.testing.TestDatabase.H2.execute("DROP SEQUENCE IF EXISTS \"" + prefix + "orders\"");
        }
    }

    @Test
    void registersEveryMeterWhenTheSequenceIsCreatedTaggedBySequenceStrategyAndStore() {
        registry.sequence("orders");

        List<Meter> issued = List.copyOf(meters.find("seqgen.ids.issued").meters());
        assertThat(issued).hasSize(1);
        assertThat(issued.get(0).getId().getTags()).containsExactlyInAnyOrder(Tag.of("sequence", "orders"),
                Tag.of("strategy", "batch"), Tag.of("store", "memory"), Tag.of("kind", "table"));
        Set<String> names = meters.getMeters().stream().map(m -> m.getId().getName()).collect(Collectors.toSet());
        assertThat(names).containsExactlyInAnyOrder("seqgen.ids.issued", "seqgen.reservations",
                "seqgen.reservation.retries", "seqgen.waits", "seqgen.block.remaining", "seqgen.block.size",
                "seqgen.ids.discarded", "seqgen.capacity.used", "seqgen.kept.values");
        assertThat(meters.find("seqgen.reservations").tag("result", "success").timer()).isNotNull();
        assertThat(meters.find("seqgen.reservations").tag("result", "failure").timer()).isNotNull();
    }

    @Test
    void asyncBatchSequencesAlsoPublishTheirRefillPointAndLateRefills() throws Exception {
        // The second reservation (the first background refill after the first block) waits at a gate until the
        // caller has found its block empty: one late refill, forced rather than hoped for.
        GatedStore gated = new GatedStore(new InMemorySequenceStore(), 2);
        try (SequenceRegistry asyncBatch = SequenceRegistry.builder(gated)
                .defaults(SequenceSettings.builder().blockSize(100).adaptiveMaxBlockSize(100)
                        .acquireTimeout(Duration.ofMinutes(1)).build())
                .metrics(new MicrometerMetricsTrackerFactory(meters)).build()) {
            Sequence orders = asyncBatch.sequence("orders");
            assertThat(meters.get("seqgen.refill.point").tag("strategy", "async-batch").gauge().value())
                    .isEqualTo(25);
            await().atMost(Duration.ofMinutes(1)).until(() -> orders.stats().remaining() == 100);
            CompletableFuture<Void> caller = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 1_000; i++) {
                    orders.next();
                }
            }, Concurrently.OWN_THREAD);
            gated.awaitGatedCall();
            await().atMost(Duration.ofMinutes(1)).until(() -> orders.stats().lateRefills() == 1);
            gated.open();
            caller.get(1, TimeUnit.MINUTES);

            assertThat(meters.get("seqgen.refill.point").gauge().value()).isEqualTo(orders.stats().refillPoint());
            double late = meters.get("seqgen.refills.late").functionCounter().count();
            assertThat(late).isPositive().isEqualTo(orders.stats().lateRefills());
            assertThat(meters.get("seqgen.refills.late").meter().getId().getBaseUnit()).isEqualTo("refills");
        }
        assertThat(meters.find("seqgen.refill.point").meters()).as("removed with the sequence").isEmpty();
    }

    @Test
    void closingTheRegistryRemovesItsMetersAndANewRegistryPublishesItsOwn() {
        registry.sequence("orders").next();
        registry.sequence("invoices");
        assertThat(meters.find("seqgen.ids.issued").tag("sequence", "orders").functionCounter().count()).isEqualTo(1);

        registry.close();
        assertThat(meters.getMeters()).as("meters left reading closed sequences").isEmpty();

        try (SequenceRegistry again = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build())
                .metrics(new MicrometerMetricsTrackerFactory(meters)).build()) {
            again.sequence("orders");
            assertThat(meters.find("seqgen.ids.issued").tag("sequence", "orders").functionCounter().count())
                    .as("the new sequence's count, not the closed one's").isZero();
        }
        assertThat(meters.getMeters()).isEmpty();
    }

    /**
     * The values stopped instances kept for the fleet are read from the store's table of kept ranges when the gauge
     * is read: what a stop keeps raises it, what a start takes lowers it, and a store that cannot be read shows NaN
     * rather than a count it does not know.
     */
    @Test
    void theValuesKeptForTheFleetAreAGaugeThatReadsTheStoresKeptRanges() {
        registry.sequence("orders").next();
        registry.sequence("tickets", SequenceSettings.builder().strategy(Strategy.ASYNC).build());
        io.micrometer.core.instrument.Gauge kept = meters.get("seqgen.kept.values").tag("sequence", "orders").gauge();
        assertThat(kept.getId().getTags()).containsExactlyInAnyOrder(Tag.of("sequence", "orders"),
                Tag.of("strategy", "batch"), Tag.of("store", "memory"), Tag.of("kind", "table"));
        assertThat(meters.find("seqgen.kept.values").tag("sequence", "tickets").gauge())
                .as("an async sequence holds no block and keeps nothing").isNull();
        assertThat(kept.value()).isZero();

        // Two stopped instances kept what they held; a starting one takes the lowest range, split to its block.
        store.keep("orders", 1000, 1500);
        store.keep("orders", 2000, 2100);
        assertThat(kept.value()).isEqualTo(600);
        assertThat(store.takeKept("orders", 10, Long.MAX_VALUE)).isPresent();
        assertThat(kept.value()).isEqualTo(590);

        store.down(true);
        assertThat(kept.value()).isNaN();
        store.down(false);
        registry.close();
        assertThat(meters.find("seqgen.kept.values").gauges()).as("removed with the sequence's meters").isEmpty();
    }

    @Test
    void everyMeterHasADescriptionAndABaseUnit() {
        registry.sequence("orders");

        assertThat(meters.getMeters()).allSatisfy(meter -> {
            assertThat(meter.getId().getDescription()).as(meter.getId().getName()).isNotBlank();
            assertThat(meter.getId().getBaseUnit()).as(meter.getId().getName()).isNotBlank();
        });
        assertThat(meters.get("seqgen.ids.issued").meter().getId().getBaseUnit()).isEqualTo("ids");
        assertThat(meters.get("seqgen.reservation.retries").meter().getId().getBaseUnit()).isEqualTo("retries");
        assertThat(meters.get("seqgen.capacity.used").meter().getId().getBaseUnit()).isEqualTo("ratio");
        assertThat(meters.get("seqgen.waits").timer().getId().getBaseUnit()).isEqualTo("seconds");
    }

    @Test
    void countsIssuedValuesReservationsWaitsAndTheBlockInHand() {
        Sequence orders = registry.sequence("orders");
        for (int i = 0; i < 25; i++) {
            orders.next();
        }

        assertThat(meters.get("seqgen.ids.issued").functionCounter().count()).isEqualTo(25);
        assertThat(meters.get("seqgen.reservations").tag("result", "success").timer().count()).isEqualTo(3);
        assertThat(meters.get("seqgen.reservations").tag("result", "failure").timer().count()).isZero();
        // Each of the three refills made its caller wait for the store.
        assertThat(meters.get("seqgen.waits").timer().count()).isEqualTo(3);
        assertThat(meters.get("seqgen.block.remaining").gauge().value()).isEqualTo(5);
        assertThat(meters.get("seqgen.block.size").gauge().value()).isEqualTo(10);
        assertThat(meters.get("seqgen.capacity.used").gauge().value())
                .isEqualTo(30.0 / SequenceSettings.LARGEST_MAX_VALUE);
    }

    @Test
    void aSequenceNearItsMaximumShowsItsCapacityUsed() {
        Sequence invoices = registry.sequence("invoices",
                SequenceSettings.builder().strategy(Strategy.ASYNC).maxValue(8).build());
        invoices.next();
        invoices.next();

        assertThat(meters.get("seqgen.capacity.used").tag("sequence", "invoices").gauge().value()).isEqualTo(0.25);
        assertThat(meters.get("seqgen.block.size").tag("sequence", "invoices").tag("strategy", "async").gauge()
                .value()).isEqualTo(1);
    }

    @Test
    void countsRetriesOfTransientErrors() {
        store.failNextTransiently(2);

        registry.sequence("orders").next();

        assertThat(meters.get("seqgen.reservation.retries").counter().count()).isEqualTo(2);
        assertThat(meters.get("seqgen.reservations").tag("result", "failure").timer().count()).isEqualTo(2);
        assertThat(meters.get("seqgen.reservations").tag("result", "success").timer().count()).isEqualTo(1);
    }

    @Test
    void timesFailedReservations() {
        Sequence orders = registry.sequence("orders", SequenceSettings.builder().strategy(Strategy.BATCH)
                .blockSize(10).acquireTimeout(Duration.ofMillis(200)).build());
        store.failPermanently(new SequenceStoreException("disk full", null, false));

        assertThatThrownBy(orders::next).isInstanceOf(SequenceUnavailableException.class);

        assertThat(meters.get("seqgen.reservations").tag("result", "failure").timer().count()).isEqualTo(1);
        assertThat(meters.get("seqgen.reservation.retries").counter().count()).isZero();
    }

    @Test
    void countsTheTailNeitherGivenBackNorKeptAsDiscarded() {
        store.keeping(false);
        Sequence orders = registry.sequence("orders");
        orders.next();
        try (SequenceRegistry otherJvm = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build()).build()) {
            otherJvm.sequence("orders").next();
        }

        // Read through the meter taken before close: closing the sequence removes its meters from the registry.
        io.micrometer.core.instrument.Counter discarded = meters.get("seqgen.ids.discarded").counter();
        orders.close();

        assertThat(discarded.count()).isEqualTo(9);
    }

    @Test
    void theStrategyTagIsTheConfigurationSpelling() {
        assertThat(MicrometerMetricsTrackerFactory.strategyTag(Strategy.ASYNC_BATCH)).isEqualTo("async-batch");
        assertThat(MicrometerMetricsTrackerFactory.strategyTag(Strategy.SYNC)).isEqualTo("sync");
    }
}
