package dev.seqgen.jmh.table;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** The results of one run: printed as the table, written as JSON and CSV, drawn as a PNG. */
final class TableReport {

    private final TableOptions options;
    private final String store;
    private final double storeRoundTripMillis;
    private final double sequenceCallMillis;
    private final boolean boundsOnInjectedLatency;
    private final List<CellResult> results = new ArrayList<>();

    TableReport(TableOptions options, Session session) {
        this.options = options;
        this.store = session.storeName();
        this.storeRoundTripMillis = session.rowRoundTripNanos() / 1e6;
        this.sequenceCallMillis = session.sequenceCallNanos() / 1e6;
        this.boundsOnInjectedLatency = session.boundsOnInjectedLatency();
    }

    void add(CellResult result) {
        results.add(result);
    }

    List<CellResult> results() {
        return List.copyOf(results);
    }

    /** The line above the table: what was measured, and how. */
    String settings() {
        return String.format(Locale.ROOT, "store %s (%s); app transaction %d ms; injected store latency %d ms;"
                        + " measured store round trip %.2f ms%s; block %d, low watermark %d; %d s per run after %d s"
                        + " warm-up; isolation %s; %d registr%s per mode; %d value%s per transaction%s; bounds from the %s",
                store, options.url(), options.appLatency().toMillis(),
                options.storeLatency().toMillis(), storeRoundTripMillis,
                sequenceCallMillis > 0 ? String.format(Locale.ROOT, ", native sequence call %.2f ms", sequenceCallMillis)
                        : "",
                options.blockSize(), options.effectiveLowWatermark(), options.duration().toSeconds(),
                options.warmup().toSeconds(),
                options.isolation() == null ? "the database's default" : options.isolation(), options.registries(),
                options.registries() == 1 ? "y" : "ies", options.entitiesPerTransaction(),
                options.entitiesPerTransaction() == 1 ? "" : "s",
                options.rollbackEvery() == 0 ? "" : ", every " + options.rollbackEvery() + "th rolled back",
                boundsOnInjectedLatency
                        ? "injected latency (store = call = " + options.storeLatency().toMillis() + " ms, a floor)"
                        : "measured round trips (estimates: no latency injected)");
    }

    void print(PrintStream out) {
        out.println(settings());
        out.println();
        out.println("| mode | threads | values/s | p50 ms | p90 ms | p99 ms | max ms | errors | rolled back"
                + " | retries/10k | bound values/s | bound | share of bound |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|");
        for (CellResult r : results) {
            out.printf(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %d | %d | %.1f | %.1f | %s | %.0f %% |%n",
                    r.mode().option, r.threads(), r.valuesPerSecond(), r.p50(), r.p90(), r.p99(), r.max(), r.errors(),
                    r.rolledBack(), r.retriesPer10k(), r.bound(), r.boundFormula(), 100 * r.share());
        }
        results.stream().filter(r -> r.firstError() != null).forEach(r -> out.printf("%s, %d threads: first error: %s%n",
                r.mode().option, r.threads(), r.firstError()));
    }

    /**
     * Writes {@code <prefix>.json}, {@code <prefix>.csv} and {@code <prefix>.png}.
     *
     * @return the files written
     */
    List<Path> write(Path prefix) throws IOException {
        Path dir = prefix.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Path json = sibling(prefix, ".json");
        Path csv = sibling(prefix, ".csv");
        Path png = sibling(prefix, ".png");
        Files.writeString(json, json());
        Files.writeString(csv, csv());
        return drawChart(png) ? List.of(json, csv, png) : List.of(json, csv);
    }

    private static Path sibling(Path prefix, String extension) {
        return prefix.resolveSibling(prefix.getFileName() + extension);
    }

    String csv() {
        StringBuilder csv = new StringBuilder("store,mode,threads,values,seconds,values_per_second,p50_ms,p90_ms,p99_ms,"
                + "max_ms,errors,bound_values_per_second,bound,share,app_latency_ms,store_latency_ms,"
                + "store_round_trip_ms,sequence_call_ms,block_size,low_watermark,retries,retries_per_10k,rolled_back\n");
        for (CellResult r : results) {
            csv.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%.3f,\"%s\",%.4f,%d,%d,"
                            + "%.3f,%.3f,%d,%d,%d,%.1f,%d%n", store, r.mode().option, r.threads(), r.values(), r.seconds(),
                    r.valuesPerSecond(), r.p50(), r.p90(), r.p99(), r.max(), r.errors(), r.bound(),
                    r.boundFormula(), r.share(), options.appLatency().toMillis(),
                    options.storeLatency().toMillis(), storeRoundTripMillis, sequenceCallMillis, options.blockSize(),
                    options.effectiveLowWatermark(), r.retries(), r.retriesPer10k(), r.rolledBack()));
        }
        return csv.toString();
    }

    String json() {
        StringBuilder json = new StringBuilder("{\n");
        json.append(String.format(Locale.ROOT, "  \"store\": %s,%n  \"url\": %s,%n  \"appLatencyMs\": %d,%n"
                        + "  \"storeLatencyMs\": %d,%n  \"storeRoundTripMs\": %.3f,%n  \"sequenceCallMs\": %.3f,%n"
                        + "  \"blockSize\": %d,%n  \"lowWatermark\": %d,%n  \"durationSeconds\": %d,%n"
                        + "  \"warmupSeconds\": %d,%n  \"isolation\": %s,%n  \"registries\": %d,%n  \"results\": [",
                quote(store), quote(options.url()),
                options.appLatency().toMillis(), options.storeLatency().toMillis(), storeRoundTripMillis,
                sequenceCallMillis, options.blockSize(), options.effectiveLowWatermark(),
                options.duration().toSeconds(), options.warmup().toSeconds(),
                options.isolation() == null ? "null" : quote(options.isolation()), options.registries()));
        for (int i = 0; i < results.size(); i++) {
            CellResult r = results.get(i);
            json.append(i == 0 ? "\n" : ",\n");
            json.append(String.format(Locale.ROOT, "    {\"mode\": %s, \"threads\": %d, \"values\": %d, \"seconds\": %.3f,"
                            + " \"valuesPerSecond\": %.3f, \"p50Ms\": %s, \"p90Ms\": %s, \"p99Ms\": %s, \"maxMs\": %s,"
                            + " \"errors\": %d, \"firstError\": %s, \"boundValuesPerSecond\": %.3f, \"bound\": %s,"
                            + " \"share\": %.4f, \"retries\": %d, \"retriesPer10k\": %.1f, \"rolledBack\": %d}",
                    quote(r.mode().option), r.threads(), r.values(), r.seconds(),
                    r.valuesPerSecond(), number(r.p50()), number(r.p90()), number(r.p99()), number(r.max()),
                    r.errors(), r.firstError() == null ? "null" : quote(r.firstError()), r.bound(),
                    quote(r.boundFormula()), r.share(), r.retries(), r.retriesPer10k(), r.rolledBack()));
        }
        return json.append("\n  ]\n}\n").toString();
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "null" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

    /**
     * Draws two bar charts side by side, one bar per thread count: values per second and p99, both on log
     * scales.
     *
     * @return false if there was nothing to draw: no run completed a transaction
     */
    private boolean drawChart(Path png) throws IOException {
        CategoryChart throughput = chart("values per second", "values/s");
        CategoryChart p99 = chart("p99 latency of the application transaction", "ms");
        double smallestRate = Double.MAX_VALUE;
        double smallestP99 = Double.MAX_VALUE;
        for (int threads : options.threads()) {
            List<String> modes = new ArrayList<>();
            List<Double> rates = new ArrayList<>();
            List<Double> latencies = new ArrayList<>();
            for (CellResult r : results) {
                if (r.threads() == threads && !Double.isNaN(r.p99()) && r.values() > 0) {
                    modes.add(r.mode().option);
                    rates.add(r.valuesPerSecond());
                    latencies.add(r.p99());
                    smallestRate = Math.min(smallestRate, r.valuesPerSecond());
                    smallestP99 = Math.min(smallestP99, r.p99());
                }
            }
            if (!modes.isEmpty()) {
                throughput.addSeries(threads + " threads", modes, rates);
                p99.addSeries(threads + " threads", modes, latencies);
            }
        }
        if (smallestRate == Double.MAX_VALUE) {
            return false;
        }
        startAxisBelow(throughput, smallestRate);
        startAxisBelow(p99, smallestP99);
        String file = png.toString();
        BitmapEncoder.saveBitmap(List.of(throughput, p99), 1, 2,
                file.substring(0, file.length() - ".png".length()), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    /**
     * Starts a logarithmic axis at the power of ten below the smallest bar: bars grow from the axis minimum,
     * which XChart otherwise puts at 0, where a logarithmic axis cannot start.
     */
    private static void startAxisBelow(CategoryChart chart, double smallest) {
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(smallest))));
    }

    private CategoryChart chart(String title, String unit) {
        CategoryChart chart = new CategoryChartBuilder().width(760).height(480)
                .title(store + ": " + title)
                .xAxisTitle("mode (app " + options.appLatency().toMillis() + " ms, store +"
                        + options.storeLatency().toMillis() + " ms)")
                .yAxisTitle(unit)
                .build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setXAxisLabelRotation(20);
        return chart;
    }
}
