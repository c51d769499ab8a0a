package dev.seqgen.boot.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.metrics.SequenceMetricsTracker;
import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class SeqgenMetricsAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    SeqgenAutoConfiguration.class, SeqgenMetricsAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true");

    @Test
    void sequencesPublishTheirMetersToTheApplicationsMeterRegistry() {
        contextRunner.withPropertyValues("seqgen.sequences.orders.strategy=batch",
                "seqgen.sequences.orders.block-size=10").run(context -> {
                    assertThat(context).hasSingleBean(MicrometerMetricsTrackerFactory.class);
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    for (int i = 0; i < 12; i++) {
                        registry.sequence("orders").next();
                    }
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    FunctionCounter issued = meters.get("seqgen.ids.issued").functionCounter();
                    assertThat(issued.getId().getTags()).containsExactlyInAnyOrder(Tag.of("sequence", "orders"),
                            Tag.of("strategy", "batch"), Tag.of("store", "h2"), Tag.of("kind", "table"));
                    assertThat(issued.getId().getBaseUnit()).isEqualTo("ids");
                    assertThat(issued.count()).isEqualTo(12);
                    Timer reservations = meters.get("seqgen.reservations").tag("sequence", "orders")
                            .tag("result", "success").timer();
                    assertThat(reservations.count()).isEqualTo(2);
                    assertThat(reservations.getId().getBaseUnit()).isEqualTo("seconds");
                    assertThat(meters.get("seqgen.block.remaining").tag("store", "h2").gauge().value()).isEqualTo(8);
                    assertThat(meters.get("seqgen.block.size").gauge().value()).isEqualTo(10);
                    assertThat(meters.get("seqgen.waits").timer().count()).isEqualTo(2);
                    assertThat(meters.get("seqgen.reservation.retries").counter().count()).isZero();
                    assertThat(meters.get("seqgen.ids.discarded").counter().count()).isZero();
                    assertThat(meters.get("seqgen.capacity.used").gauge().value()).isPositive();
                });
    }

    @Test
    void withAnObservationRegistryReservationsAndWaitsAreObservations() {
        TestObservationRegistry observations = TestObservationRegistry.create();
        contextRunner.withBean(ObservationRegistry.class, () -> observations)
                .withPropertyValues("seqgen.sequences.orders.strategy=batch", "seqgen.sequences.orders.block-size=10")
                .run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    for (int i = 0; i < 12; i++) {
                        registry.sequence("orders").next();
                    }
                    TestObservationRegistryAssert.assertThat(observations)
                            .hasObservationWithNameEqualTo("seqgen.reservation").that()
                            .hasLowCardinalityKeyValue("sequence", "orders")
                            .hasLowCardinalityKeyValue("strategy", "batch")
                            .hasLowCardinalityKeyValue("store", "h2")
                            .hasLowCardinalityKeyValue("outcome", "success");
                    TestObservationRegistryAssert.assertThat(observations)
                            .hasObservationWithNameEqualTo("seqgen.wait");
                });
    }

    @Test
    void anApplicationMetricsTrackerFactoryReplacesMicrometers() {
        AtomicInteger created = new AtomicInteger();
        SequenceMetricsTrackerFactory own = (sequence, store) -> {
            created.incrementAndGet();
            return SequenceMetricsTracker.noop();
        };
        contextRunner.withBean(SequenceMetricsTrackerFactory.class, () -> own).run(context -> {
            assertThat(context).doesNotHaveBean(MicrometerMetricsTrackerFactory.class);
            context.getBean(SequenceRegistry.class).sequence("orders");
            assertThat(created).hasValue(1);
            assertThat(context.getBean(MeterRegistry.class).find("seqgen.ids.issued").meter()).isNull();
        });
    }

    @Test
    void withoutAMeterRegistryThereAreNoMetrics() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        SeqgenAutoConfiguration.class, SeqgenMetricsAutoConfiguration.class))
                .withPropertyValues("spring.datasource.generate-unique-name=true")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(MicrometerMetricsTrackerFactory.class);
                    assertThat(context.getBean(SequenceRegistry.class).sequence("orders").next()).isEqualTo(1);
                });
    }

    @Test
    void withoutMicrometerOnTheClassPathTheRegistryStillWorks() {
        contextRunner.withClassLoader(new FilteredClassLoader("io.micrometer")).run(context -> {
            assertThat(context).doesNotHaveBean(MicrometerMetricsTrackerFactory.class)
                    .doesNotHaveBean(MeterRegistry.class);
            assertThat(context.getBean(SequenceRegistry.class).sequence("orders").next()).isEqualTo(1);
        });
    }

    @Test
    void theSwitchTurnsTheMetricsOffToo() {
        contextRunner.withPropertyValues("seqgen.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(MicrometerMetricsTrackerFactory.class));
    }
}
