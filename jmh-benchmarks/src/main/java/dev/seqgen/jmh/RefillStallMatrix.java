package dev.seqgen.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs {@link RefillStallBenchmark}'s whole matrix in one JMH run and reports it: a Markdown table of the
 * percentiles of every cell, each seqgen and Hibernate row also as its p99.9 minus the p99.9 of the application
 * work alone ({@code NONE}) of the same cell, and a PNG chart of p99.9 per cell.
 *
 * <pre>{@code
 * java -cp jmh-benchmarks/target/benchmarks.jar dev.seqgen.jmh.RefillStallMatrix \
 *     --warmup=2s --warmup-iterations=3 --measurement=3s --iterations=3 \
 *     --out=jmh-benchmarks/results/refill-stall-matrix
 * }</pre>
 *
 * Writes {@code <out>.md} and {@code <out>.png}; JMH's own output goes to standard output as usual.
 */
public final class RefillStallMatrix {

    /** The percentiles reported, as JMH names them. */
    static final double[] PERCENTILES = {50, 99, 99.9, 99.99};

    /**
     * One cell's result for one source, in microseconds.
     *
     * @param source the competitor
     * @param idsPerSecond the consumption rate
     * @param storeLatencyMillis the store's latency
     * @param samples how many operations were sampled
     * @param percentiles p50, p99, p99.9 and p99.99
     * @param max the slowest sampled operation
     */
    record Row(String source, int idsPerSecond, int storeLatencyMillis, long samples, double[] percentiles,
            double max) {

        double p999() {
            return percentiles[2];
        }
    }

    private RefillStallMatrix() {
    }

    /**
     * Runs the matrix.
     *
     * @param args {@code --warmup=2s --warmup-iterations=3 --measurement=3s --iterations=3 --out=prefix}, and
     *     optionally {@code --rates=10000,100000} and {@code --latencies=1,5}
     * @throws RunnerException if JMH fails
     * @throws IOException if a report cannot be written
     */
    public static void main(String[] args) throws RunnerException, IOException {
        Map<String, String> options = new LinkedHashMap<>(Map.of("warmup", "2s", "warmup-iterations", "3",
                "measurement", "3s", "iterations", "3", "out", "target/refill-stall-matrix",
                "rates", "10000,100000,1000000", "latencies", "1,5,20"));
        for (String arg : args) {
            int equals = arg.indexOf('=');
            if (!arg.startsWith("--") || equals < 0 || !options.containsKey(arg.substring(2, equals))) {
                throw new IllegalArgumentException("unknown option " + arg + "; options: " + options.keySet()
                        + " as --name=value");
            }
            options.put(arg.substring(2, equals), arg.substring(equals + 1));
        }
        ChainedOptionsBuilder jmh = new OptionsBuilder()
                .include(RefillStallBenchmark.class.getName() + ".workThenId")
                .forks(1)
                .warmupIterations(Integer.parseInt(options.get("warmup-iterations")))
                .warmupTime(TimeValue.fromString(options.get("warmup")))
                .measurementIterations(Integer.parseInt(options.get("iterations")))
                .measurementTime(TimeValue.fromString(options.get("measurement")))
                .param("idsPerSecond", options.get("rates").split(","))
                .param("storeLatencyMillis", options.get("latencies").split(","));
        Collection<RunResult> results = new Runner(jmh.build()).run();
        List<Row> rows = new ArrayList<>();
        for (RunResult result : results) {
            BenchmarkParams params = result.getParams();
            Statistics statistics = result.getPrimaryResult().getStatistics();
            double[] percentiles = new double[PERCENTILES.length];
            for (int i = 0; i < PERCENTILES.length; i++) {
                percentiles[i] = statistics.getPercentile(PERCENTILES[i]);
            }
            rows.add(new Row(params.getParam("source"), Integer.parseInt(params.getParam("idsPerSecond")),
                    Integer.parseInt(params.getParam("storeLatencyMillis")), statistics.getN(), percentiles,
                    statistics.getMax()));
        }
        Path prefix = Path.of(options.get("out"));
        if (prefix.getParent() != null) {
            Files.createDirectories(prefix.getParent());
        }
        String table = table(rows);
        Files.writeString(Path.of(prefix + ".md"), table);
        chart(rows, Path.of(prefix + ".png"));
        System.out.println(System.lineSeparator() + table);
        System.out.println("wrote " + prefix + ".md and " + prefix + ".png");
    }

    /**
     * The Markdown table: one line per cell and source, in the order of the run, p99.9 also relative to the
     * application work alone of the same cell.
     */
    static String table(List<Row> rows) {
        StringBuilder table = new StringBuilder("| ids/s | store ms | source | samples | p50 µs | p99 µs | p99.9 µs"
                + " | p99.99 µs | max µs | p99.9 − work alone µs |\n|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row row : rows) {
            Row alone = rows.stream().filter(r -> r.source().equals("NONE") && r.idsPerSecond() == row.idsPerSecond()
                    && r.storeLatencyMillis() == row.storeLatencyMillis()).findFirst().orElse(null);
            String excess = alone == null || row == alone ? "—" : format(row.p999() - alone.p999());
            table.append(String.format(Locale.ROOT, "| %,d | %d | `%s` | %,d | %s | %s | %s | %s | %s | %s |%n",
                    row.idsPerSecond(), row.storeLatencyMillis(), row.source(), row.samples(),
                    format(row.percentiles()[0]), format(row.percentiles()[1]), format(row.p999()),
                    format(row.percentiles()[3]), format(row.max()), excess));
        }
        return table.toString();
    }

    private static String format(double micros) {
        return String.format(Locale.ROOT, Math.abs(micros) >= 100 ? "%,.0f" : "%.1f", micros);
    }

    /** One bar per source and cell: p99.9 on a logarithmic axis. */
    private static void chart(List<Row> rows, Path png) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(520)
                .title("p99.9 of work + one id, per consumption rate and store latency (2 threads)")
                .xAxisTitle("ids/s, store latency").yAxisTitle("µs").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setXAxisLabelRotation(20);
        Map<String, List<Row>> bySource = new LinkedHashMap<>();
        for (Row row : rows) {
            bySource.computeIfAbsent(row.source(), s -> new ArrayList<>()).add(row);
        }
        double smallest = Double.MAX_VALUE;
        for (Map.Entry<String, List<Row>> source : bySource.entrySet()) {
            List<String> cells = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            for (Row row : source.getValue()) {
                cells.add(String.format(Locale.ROOT, "%,d/s, %d ms", row.idsPerSecond(), row.storeLatencyMillis()));
                values.add(Math.max(row.p999(), 0.001));
                smallest = Math.min(smallest, Math.max(row.p999(), 0.001));
            }
            chart.addSeries(source.getKey().equals("NONE") ? "application work alone" : source.getKey(), cells, values);
        }
        if (smallest == Double.MAX_VALUE) {
            return;
        }
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(smallest))));
        String file = png.toString();
        BitmapEncoder.saveBitmap(chart, file.substring(0, file.length() - ".png".length()),
                BitmapEncoder.BitmapFormat.PNG);
    }
}
