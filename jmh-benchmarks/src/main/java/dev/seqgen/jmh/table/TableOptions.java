package dev.seqgen.jmh.table;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The command line of {@link StrategyTable}: {@code --name=value} options, each with a default. */
record TableOptions(
        Database database,
        String url,
        String user,
        String password,
        List<Mode> modes,
        List<Integer> threads,
        Duration duration,
        Duration warmup,
        Duration appLatency,
        Duration storeLatency,
        int blockSize,
        int lowWatermark,
        String isolation,
        int registries,
        int entitiesPerTransaction,
        int rollbackEvery,
        Path out) {

    static final String USAGE = """
            java -cp jmh-benchmarks/target/benchmarks.jar dev.seqgen.jmh.table.StrategyTable [--name=value ...]

              --store=<name>               h2 (default, in memory), postgres, mariadb or spanner-emulator
              --url=<url>                  default: h2 in memory, jdbc:postgresql://localhost:5432/seqgen_test,
                                           jdbc:mariadb://127.0.0.1:3306/seqgen_test, cloudspanner://localhost:9010/
                                           projects/seqgen-bench/instances/seqgen-bench/databases/strategy-table
              --user=<name>                default sa (h2) or seqgen
              --password=<password>        default empty (h2) or seqgen
              --modes=<list>               of sync, sync-at-flush, sync-at-flush-each, async, batch, async-batch, hibernate-pooled,
                                           seqgen-pooled, native-sequence, native-async, native-batch,
                                           native-async-batch (default: all the store has; the spanner
                                           emulator has no sequences for the last six)
              --threads=<list>             caller threads per run (default 10,50)
              --duration=<time>            measured time per mode and thread count (default 10s)
              --warmup=<time>              unmeasured time before it (default 2s)
              --app-latency=<time>         the simulated application transaction (default 10ms)
              --store-latency=<time>       added to every commit on the database, locks held (default 0ms;
                                           not on the spanner emulator)
              --block-size=<n>             batch, async-batch and hibernate-pooled block (default 1000)
              --low-watermark=<n>          async-batch refill point (default: a quarter of the block)
              --isolation=<level>          read-committed, repeatable-read or serializable for every pooled
                                           connection (default: the database's)
              --registries=<n>             seqgen registries per mode, as n JVMs; callers spread over them
                                           (default 1)
              --entities-per-tx=<n>        values each application transaction takes, K of the bounds
                                           (default 1); more than 1 only for sync, sync-at-flush and
                                           sync-at-flush-each, whose values/s then count every value
              --rollback-every=<n>         every n-th transaction of sync-at-flush and
                                           sync-at-flush-each takes its values and rolls back (default
                                           0: none); the values/s count committed values only, and the
                                           committed values are still checked to be exactly 1..n
              --out=<path prefix>          writes <prefix>.json, <prefix>.csv, <prefix>.png
                                           (default target/strategy-table/<store>)

            Times are written like 500ms, 10s or 2m. The spanner emulator needs
            GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS=false and GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW=false,
            and it runs one read-write transaction at a time: its figures show the emulator, not Spanner.
            """;

    private static final String TABLE_MODES = "sync,sync-at-flush,sync-at-flush-each,async,batch,async-batch";
    private static final String ALL_MODES = TABLE_MODES + ",hibernate-pooled,seqgen-pooled,native-sequence,native-async,"
            + "native-batch,native-async-batch";

    private static final Pattern TIME = Pattern.compile("(\\d+)(ms|s|m)");

    /**
     * Parses the command line.
     *
     * @throws IllegalArgumentException naming the option that is wrong and what it allows
     */
    static TableOptions parse(String... args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("unexpected argument '" + arg + "': options are --name=value");
            }
            given.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        Database database = Database.fromOption(given.getOrDefault("store", "h2"));
        int blockSize = positiveInt(given, "block-size", 1000);
        int lowWatermark = given.containsKey("low-watermark") ? integer(given, "low-watermark") : -1;
        if (given.containsKey("low-watermark") && (lowWatermark < 0 || lowWatermark >= blockSize)) {
            throw new IllegalArgumentException("--low-watermark=" + lowWatermark + ": expected 0 to block size - 1");
        }
        TableOptions options = new TableOptions(
                database,
                given.getOrDefault("url", database.defaultUrl),
                given.getOrDefault("user", database.defaultUser),
                given.getOrDefault("password", database.defaultPassword),
                modes(given.getOrDefault("modes", database.hasNativeSequences() ? ALL_MODES : TABLE_MODES)),
                threads(given.getOrDefault("threads", "10,50")),
                time(given, "duration", "10s"),
                time(given, "warmup", "2s"),
                time(given, "app-latency", "10ms"),
                time(given, "store-latency", "0ms"),
                blockSize,
                lowWatermark,
                isolation(given.get("isolation")),
                positiveInt(given, "registries", 1),
                positiveInt(given, "entities-per-tx", 1),
                nonNegativeInt(given, "rollback-every", 0),
                Path.of(given.getOrDefault("out", "target/strategy-table/" + database.option)));
        for (String name : List.of("store", "url", "user", "password", "modes", "threads", "duration", "warmup",
                "app-latency", "store-latency", "block-size", "low-watermark", "isolation", "registries", "entities-per-tx", "rollback-every", "out")) {
            given.remove(name);
        }
        if (!given.isEmpty()) {
            throw new IllegalArgumentException("unknown option(s): --" + String.join(", --", given.keySet()));
        }
        if (!database.hasNativeSequences() && options.modes().stream().anyMatch(Mode::usesNativeSequence)) {
            throw new IllegalArgumentException("--modes: " + database.option + " has no sequences for"
                    + " hibernate-pooled, seqgen-pooled, native-sequence or the native-* modes");
        }
        if (options.entitiesPerTransaction() > 1) {
            requireModes(options, Mode::takesSeveralValues, "--entities-per-tx=" + options.entitiesPerTransaction()
                    + ": only sync, sync-at-flush and sync-at-flush-each take several values per transaction");
        }
        if (options.rollbackEvery() > 0) {
            requireModes(options, Mode::checksGapless, "--rollback-every=" + options.rollbackEvery()
                    + ": only sync-at-flush and sync-at-flush-each roll transactions back");
        }
        if (!database.canInjectLatency() && !options.storeLatency().isZero()) {
            throw new IllegalArgumentException("--store-latency: cannot be injected on " + database.option);
        }
        return options;
    }

    /** The JDBC isolation constant's name for HikariCP, or null for the database's default. */
    private static String isolation(String option) {
        if (option == null) {
            return null;
        }
        return switch (option) {
            case "read-committed" -> "TRANSACTION_READ_COMMITTED";
            case "repeatable-read" -> "TRANSACTION_REPEATABLE_READ";
            case "serializable" -> "TRANSACTION_SERIALIZABLE";
            default -> throw new IllegalArgumentException("--isolation=" + option
                    + ": expected read-committed, repeatable-read or serializable");
        };
    }

    private static List<Mode> modes(String list) {
        List<Mode> modes = new ArrayList<>();
        for (String name : list.split(",")) {
            modes.add(Mode.fromOption(name.trim()));
        }
        return List.copyOf(modes);
    }

    private static List<Integer> threads(String list) {
        List<Integer> threads = new ArrayList<>();
        for (String count : list.split(",")) {
            int n = integer(Map.of("threads", count.trim()), "threads");
            if (n < 1) {
                throw new IllegalArgumentException("--threads: " + n + " is not a thread count (expected >= 1)");
            }
            threads.add(n);
        }
        return List.copyOf(threads);
    }

    private static Duration time(Map<String, String> given, String name, String defaultValue) {
        String value = given.getOrDefault(name, defaultValue);
        Matcher m = TIME.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException("--" + name + "=" + value + ": expected a time such as 500ms, 10s or 2m");
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
    }

    private static int positiveInt(Map<String, String> given, String name, int defaultValue) {
        int value = given.containsKey(name) ? integer(given, name) : defaultValue;
        if (value < 1) {
            throw new IllegalArgumentException("--" + name + "=" + value + ": expected an integer >= 1");
        }
        return value;
    }

    /** Refuses an option that only some modes support when the run names another mode. */
    private static void requireModes(TableOptions options, java.util.function.Predicate<Mode> supports,
            String refusal) {
        List<String> others = options.modes().stream().filter(supports.negate()).map(mode -> mode.option).toList();
        if (!others.isEmpty()) {
            throw new IllegalArgumentException(refusal + ", not " + String.join(", ", others) + " (give --modes)");
        }
    }

    private static int nonNegativeInt(Map<String, String> given, String name, int defaultValue) {
        int value = given.containsKey(name) ? integer(given, name) : defaultValue;
        if (value < 0) {
            throw new IllegalArgumentException("--" + name + "=" + value + ": expected an integer >= 0");
        }
        return value;
    }

    private static int integer(Map<String, String> given, String name) {
        try {
            return Integer.parseInt(given.get(name));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + "=" + given.get(name) + ": expected an integer");
        }
    }

    /** The low watermark seqgen will use: the one given, or its default of a quarter of the block. */
    int effectiveLowWatermark() {
        return lowWatermark >= 0 ? lowWatermark : blockSize / 4;
    }
}
