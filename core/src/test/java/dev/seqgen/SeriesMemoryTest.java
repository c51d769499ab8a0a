package dev.seqgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.InMemorySequenceStore;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.ObjectName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What an open, unused series costs the JVM's heap, and that releasing idle series gives it back: 30,000 series
 * (10,000 tenants x 3 years) opened in one registry, the live objects measured (HotSpot's class histogram, after a
 * full collection; see {@link #usedHeap()}) before, with them open, and after their release, in a second round (the
 * first grows what stays grown). The figures are printed (docs/operations.md quotes them); the assertions hold with a
 * wide margin: a series costs less than {@value #BOUND_BYTES} bytes, and its release gives back at least three
 * quarters of that. The store's rows are created before the first measurement: they are the database's, not the
 * JVM's.
 */
class SeriesMemoryTest {

    private static final int TENANTS = 10_000;
    private static final int YEARS = 3;
    private static final int SERIES = TENANTS * YEARS;
    /** A generous bound on the bytes of one open series: several times what it measures. */
    private static final int BOUND_BYTES = 4_096;
    /** A row of the class histogram: {@code   1:   180000   5760000  java.util.concurrent.atomic.LongAdder}. */
    private static final Pattern HISTOGRAM_ROW = Pattern.compile("(?m)^\\s*\\d+:\\s+\\d+\\s+(\\d+)\\s+(\\S+)");

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"SYNC", "BATCH"})
    void anIdleSeriesCostsAFewHundredBytesAndItsReleaseGivesThemBack(Strategy strategy) {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(10).build();
        for (int tenant = 0; tenant < TENANTS; tenant++) {
            for (int year = 0; year < YEARS; year++) {
                store.createSequence(SequenceRegistry.seriesRow("invoices", key(tenant, year)), 1);
            }
        }
        AtomicLong now = new AtomicLong();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).sequence("invoices", settings)
                .ticker(now::get).seriesIdleTimeout(Duration.ofMinutes(10)).build()) {
            // A first round grows what stays grown (the maps' tables) and loads the classes, so that the second
            // round measures the series alone.
            openAll(registry, strategy, store);
            release(registry, now);
            long before = usedHeap();
            openAll(registry, strategy, store);
            long open = usedHeap();
            release(registry, now);
            long released = usedHeap();

            long perSeries = (open - before) / SERIES;
            long leftPerSeries = (released - before) / SERIES;
            System.out.printf("seqgen series memory (%s): %d series open cost %d bytes each; after their release"
                    + " %d bytes each remain%n", strategy.externalName(), SERIES, perSeries, leftPerSeries);
            assertThat(perSeries).as("bytes per open series").isPositive().isLessThan(BOUND_BYTES);
            assertThat(leftPerSeries).as("bytes per series after the release").isLessThan(perSeries / 4);
        }
    }

    private static void openAll(SequenceRegistry registry, Strategy strategy, InMemorySequenceStore store) {
        InMemorySequenceStore.Transaction transaction = store.begin();
        for (int tenant = 0; tenant < TENANTS; tenant++) {
            for (int year = 0; year < YEARS; year++) {
                Sequence series = registry.series("invoices", key(tenant, year));
                if (strategy == Strategy.SYNC) {
                    series.nextInTransaction(transaction);
                } else {
                    series.next();
                }
            }
        }
        transaction.commit();
    }

    private static void release(SequenceRegistry registry, AtomicLong now) {
        registry.releaseIdleSeries();
        now.addAndGet(Duration.ofMinutes(10).toNanos());
        assertThat(registry.releaseIdleSeries()).isEqualTo(SERIES);
        assertThat(registry.openSeries("invoices")).isEmpty();
    }

    private static String key(int tenant, int year) {
        return "tenant-" + tenant + "/" + (2024 + year);
    }

    /**
     * The bytes of the live objects: HotSpot's class histogram, which runs a full collection first and counts only
     * what is reachable, summed over every class but {@code int[]}, as which it also counts the heap's filler objects
     * (their bytes vary by megabytes between two readings; seqgen's series hold no {@code int[]}). On another JVM, the
     * heap in use after collections, which varies by hundreds of kilobytes.
     */
    private static long usedHeap() {
        try {
            String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {null}, new String[] {String[].class.getName()});
            long bytes = 0;
            Matcher row = HISTOGRAM_ROW.matcher(histogram);
            while (row.find()) {
                if (!row.group(2).equals("[I")) {
                    bytes += Long.parseLong(row.group(1));
                }
            }
            if (bytes > 0) {
                return bytes;
            }
        } catch (JMException | RuntimeException e) {
            // Not HotSpot: the heap in use after collections, below.
        }
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            long now = memory.getHeapMemoryUsage().getUsed();
            if (now >= used) {
                return now;
            }
            used = now;
        }
        return used;
    }
}
