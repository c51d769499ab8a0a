package dev.seqgen.jmh.table;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The strategy table of "Sequence generation in Spanner", redone for any store (H2, PostgreSQL, MariaDB, and
 * the Spanner emulator to try the tool on): every mode × thread count runs a closed loop of simulated
 * application transactions on a real database, and the table shows values per second, latency percentiles,
 * the rate the mode cannot beat and the share of it achieved. This is the macro measurement beside the JMH
 * micro ones: it includes the database, the pool and the scheduler.
 *
 * <p>Workload: each of {@code threads} callers repeats one application transaction that needs one value and
 * takes {@code --app-latency} (default 10 ms) of work. SYNC takes the value inside that transaction, on the
 * sequence row; the other modes take it before. With {@code --store-latency}, every commit on the database
 * takes that much longer with its locks held (so a row's reservations queue behind each other, as on a
 * far-away or replicated database), and every native sequence call pays it once as a round trip. A run is
 * {@code --warmup} unmeasured, then {@code --duration} measured: values per second count transactions
 * finished within it, latencies those started within it.
 *
 * <pre>{@code
 * java -cp jmh-benchmarks/target/benchmarks.jar dev.seqgen.jmh.table.StrategyTable \
 *     --store=postgres --threads=10,50 --app-latency=10ms --store-latency=10ms --duration=10s
 * }</pre>
 *
 * <p>Prints the table, writes it as JSON and CSV and draws throughput and p99 per mode and thread count as a
 * PNG; a progress line on standard error shows the run in flight. {@code --help} lists every option.
 */
public final class StrategyTable {

    /** Held so that its level stays set: the Spanner client logs its options at INFO through JUL. */
    private static final Logger GOOGLE_LOGS = Logger.getLogger("com.google");

    static {
        // Keeps the pool's and the Spanner client's INFO lines out of the table; warnings still show.
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        GOOGLE_LOGS.setLevel(Level.WARNING);
    }

    private StrategyTable() {
    }

    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--help")) {
            System.out.print(TableOptions.USAGE);
            return;
        }
        TableOptions options;
        try {
            options = TableOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(TableOptions.USAGE);
            System.exit(2);
            return;
        }
        System.setProperty("java.awt.headless", "true");
        TableReport report = run(options, System.err);
        report.print(System.out);
        for (var file : report.write(options.out())) {
            System.out.println("wrote " + file);
        }
    }

    /** Runs every mode with every thread count, in the order given, reporting progress to {@code progress}. */
    static TableReport run(TableOptions options, PrintStream progress) throws InterruptedException {
        try (Session session = new Session(options)) {
            TableReport report = new TableReport(options, session);
            progress.printf("%s: store round trip %.2f ms%s%n", session.storeName(),
                    session.rowRoundTripNanos() / 1e6, session.sequenceCallNanos() > 0
                            ? String.format(", native sequence call %.2f ms", session.sequenceCallNanos() / 1e6) : "");
            int cells = options.modes().size() * options.threads().size();
            int cell = 0;
            for (Mode mode : options.modes()) {
                for (int threads : options.threads()) {
                    cell++;
                    String label = String.format("[%d/%d] %s, %d threads", cell, cells, mode.option, threads);
                    report.add(runCell(session, options, mode, threads, label, progress));
                }
            }
            return report;
        }
    }

    private static CellResult runCell(Session session, TableOptions options, Mode mode, int threads, String label,
            PrintStream progress) throws InterruptedException {
        Run run;
        long retries;
        try (Mode.Workload workload = mode.open(session)) {
            run = new Run(workload, threads, mode.takesSeveralValues() ? options.entitiesPerTransaction() : 1);
            List<Thread> callers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread caller = new Thread(run::call, "strategy-table-caller-" + t);
                callers.add(caller);
                caller.start();
            }
            run.ready.await();
            run.measureStart = System.nanoTime() + options.warmup().toNanos();
            run.measureEnd = run.measureStart + options.duration().toNanos();
            run.go.countDown();
            showProgress(label, run, progress);
            for (Thread caller : callers) {
                caller.join();
            }
            retries = workload.retries();
        }
        long[] all = run.latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        return new CellResult(mode, threads, run.measuredValues.sum(), options.duration().toNanos() / 1e9,
                percentile(all, 50), percentile(all, 90), percentile(all, 99),
                all.length == 0 ? Double.NaN : all[all.length - 1] / 1e6, run.errors.sum(), run.firstError.get(),
                mode.bound(session, threads), mode.boundFormula(session), retries, run.finished.sum(),
                run.rolledBack.sum());
    }

    /**
     * One mode with one thread count: the callers start together, warm up, and stop starting transactions at
     * the end of the measured time. {@code measureStart} and {@code measureEnd} are written before {@code go}
     * opens, which makes them visible to every caller.
     */
    private static final class Run {
        final Mode.Workload workload;
        final CountDownLatch ready;
        final CountDownLatch go = new CountDownLatch(1);
        final CountDownLatch done;
        long measureStart;
        long measureEnd;
        /** Transactions finished so far, warm-up included, for the progress line. */
        final LongAdder finished = new LongAdder();
        final LongAdder measuredValues = new LongAdder();
        final LongAdder errors = new LongAdder();
        /** Transactions rolled back on purpose ({@code --rollback-every}) within the measured time. */
        final LongAdder rolledBack = new LongAdder();
        final AtomicReference<String> firstError = new AtomicReference<>();
        final List<long[]> latencies = new ArrayList<>();

        /** Values one {@code runOnce} takes. */
        final int valuesPerRun;

        Run(Mode.Workload workload, int threads, int valuesPerRun) {
            this.workload = workload;
            this.valuesPerRun = valuesPerRun;
            this.ready = new CountDownLatch(threads);
            this.done = new CountDownLatch(threads);
        }

        void call() {
            LongList own = new LongList();
            try {
                ready.countDown();
                go.await();
                for (long start = System.nanoTime(); start - measureEnd < 0; start = System.nanoTime()) {
                    boolean measured = start - measureStart >= 0;
                    try {
                        workload.runOnce();
                    } catch (Mode.RolledBackOnPurpose e) {
                        if (measured) {
                            rolledBack.increment();
                        }
                        continue;
                    } catch (Exception e) {
                        if (measured) {
                            errors.increment();
                            firstError.compareAndSet(null, e.toString());
                        }
                        continue;
                    }
                    long end = System.nanoTime();
                    finished.increment();
                    if (measured) {
                        own.add(end - start);
                        if (end - measureEnd <= 0) {
                            measuredValues.add(valuesPerRun);
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                synchronized (latencies) {
                    latencies.add(own.toArray());
                }
                done.countDown();
            }
        }
    }

    /**
     * Shows the run in flight: one line rewritten every half second on a terminal, or a new line every five
     * seconds when standard error goes to a file or a CI log.
     */
    private static void showProgress(String label, Run run, PrintStream progress) throws InterruptedException {
        boolean terminal = System.console() != null;
        long interval = terminal ? 500 : 5000;
        long previous = 0;
        long previousAt = System.nanoTime();
        while (!run.done.await(interval, TimeUnit.MILLISECONDS)) {
            long now = System.nanoTime();
            long done = run.finished.sum();
            double rate = (done - previous) * 1e9 / Math.max(1, now - previousAt);
            previous = done;
            previousAt = now;
            String phase = now - run.measureStart < 0
                    ? String.format("warm-up, %.0f s left", (run.measureStart - now) / 1e9)
                    : now - run.measureEnd < 0
                            ? String.format("measuring, %.0f of %.0f s", (now - run.measureStart) / 1e9,
                                    (run.measureEnd - run.measureStart) / 1e9)
                            : "finishing transactions in flight";
            progress.printf("%s%-36s %-34s %,10.0f values/s%s", terminal ? "\r" : "", label, phase, rate,
                    terminal ? " " : System.lineSeparator());
        }
        progress.printf("%s%-36s %-34s %20s%n", terminal ? "\r" : "", label, "done", "");
    }

    /** The nearest-rank percentile in milliseconds. */
    static double percentile(long[] sortedNanos, double percent) {
        if (sortedNanos.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(percent / 100 * sortedNanos.length);
        return sortedNanos[Math.max(0, rank - 1)] / 1e6;
    }

    /** A growable array of longs, so recording a latency does not box it. */
    private static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
