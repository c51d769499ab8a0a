package dev.seqgen.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.jmh.series.Api;
import dev.seqgen.jmh.series.Counter;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link SeriesBenchmark} sets up on H2 (every tenant's first number taken), runs a few transactions and checks at its
 * tear-down that every series holds 1..n; no timing, no injected latency.
 */
class SeriesBenchmarkSetupTest {

    @ParameterizedTest(name = "{0}, {1}, {2} tenants")
    @CsvSource({"PER_TENANT, HIBERNATE, 3", "SHARED, HIBERNATE, 3", "PER_TENANT, JDBC, 3", "SHARED, JDBC, 3"})
    void runsOnH2AndNumbersEverySeriesFromOne(Counter counter, Api api, int tenants) {
        SeriesBenchmark benchmark = new SeriesBenchmark();
        benchmark.database = "h2";
        benchmark.counter = counter;
        benchmark.api = api;
        benchmark.tenants = tenants;
        benchmark.latencyMillis = 0;
        benchmark.setUp(2);
        try {
            Set<Long> numbers = new HashSet<>();
            for (int i = 0; i < 30; i++) {
                numbers.add(benchmark.fixture.invoice(i % tenants));
            }
            if (counter == Counter.PER_TENANT) {
                assertThat(numbers).as("each tenant's 10 numbers after its first: 2..11").containsExactlyInAnyOrder(
                        2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L);
            } else {
                assertThat(numbers).as("one row after the tenants' first numbers 1..3").hasSize(30)
                        .allSatisfy(number -> assertThat(number).isBetween(4L, 33L));
            }
            assertThat(benchmark.fixture.randomTenantInvoice()).isPositive();
            assertThat(benchmark.fixture.checkGapless())
                    .contains(tenants + " tenant(s): 34 invoices in " + (counter == Counter.PER_TENANT ? tenants : 1)
                            + " series, each numbered 1..n");
        } finally {
            benchmark.tearDown();
        }
    }
}
