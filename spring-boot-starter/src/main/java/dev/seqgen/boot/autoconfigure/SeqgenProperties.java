package dev.seqgen.boot.autoconfigure;

import dev.seqgen.CounterKind;
import dev.seqgen.KeyOrder;
import dev.seqgen.KeyRange;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.Strategy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Configuration properties for seqgen, under {@code seqgen.*}. Values are checked when the context starts:
 * a value seqgen does not accept fails the start-up with the property's name, the value and what is
 * allowed.
 */
@ConfigurationProperties("seqgen")
public class SeqgenProperties {

    /**
     * Whether to enable the seqgen auto-configuration.
     */
    private boolean enabled = true;

    /**
     * Where the sequences' rows live. 'auto' uses the application's DataSource when there is exactly one,
     * otherwise Cloud Spanner when there is a Spanner or DatabaseClient bean and seqgen-spanner is on the
     * class path, otherwise a SequenceStore bean of the application's.
     */
    private StoreType store = StoreType.AUTO;

    /**
     * Table that holds one row per sequence, optionally schema-qualified (schema.table). Unquoted
     * identifier of letters, digits and underscores.
     */
    private String table = "seqgen_sequences";

    private final Schema schema = new Schema();

    private final Jdbc jdbc = new Jdbc();

    private final Spanner spanner = new Spanner();

    /**
     * Settings of every sequence that does not set its own.
     */
    private final SequenceProperties defaults = new SequenceProperties();

    /**
     * Settings of individual sequences, by sequence name. Each sequence falls back to the defaults for
     * every setting it does not set. Names with dots or upper-case letters need brackets:
     * seqgen.sequences[Order.Lines].block-size.
     */
    private Map<String, SequenceProperties> sequences = new LinkedHashMap<>();

    private final Health health = new Health();

    private final WarmUp warmUp = new WarmUp();

    private final Series series = new Series();

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public StoreType getStore() {
        return this.store;
    }

    public void setStore(StoreType store) {
        this.store = store;
    }

    public String getTable() {
        return this.table;
    }

    public void setTable(String table) {
        this.table = table;
    }

    public Jdbc getJdbc() {
        return this.jdbc;
    }

    public Spanner getSpanner() {
        return this.spanner;
    }

    public Schema getSchema() {
        return this.schema;
    }

    public SequenceProperties getDefaults() {
        return this.defaults;
    }

    public Map<String, SequenceProperties> getSequences() {
        return this.sequences;
    }

    public void setSequences(Map<String, SequenceProperties> sequences) {
        this.sequences = sequences;
    }

    public Health getHealth() {
        return this.health;
    }

    public WarmUp getWarmUp() {
        return this.warmUp;
    }

    public Series getSeries() {
        return this.series;
    }

    /** The store that holds the sequences. */
    public enum StoreType {

        /**
         * The DataSource when there is exactly one, otherwise Cloud Spanner when there is a Spanner or
         * DatabaseClient bean, otherwise the SequenceStore bean that exists.
         */
        AUTO,

        /** The application's DataSource. */
        JDBC,

        /** Cloud Spanner, through the seqgen-spanner module. */
        SPANNER
    }

    /** The JDBC store. */
    public static class Jdbc {

        /**
         * Prefix of the database sequences' names of the sequences whose kind is native-sequence: sequence 'orders'
         * is database sequence seqgen_orders by default. Letters, digits and underscores, not starting with a digit.
         */
        private String sequencePrefix = "seqgen_";

        /**
         * Whether the JDBC store keeps one connection of the DataSource for its own statements. Threads that
         * take ids inside a transaction hold a pooled connection; with this on, a reservation never waits for
         * a second one, so a pool smaller than the number of inserting threads cannot deadlock. Costs one
         * connection of the pool for the application's lifetime.
         */
        private boolean dedicatedConnection = true;

        public String getSequencePrefix() {
            return this.sequencePrefix;
        }

        public void setSequencePrefix(String sequencePrefix) {
            this.sequencePrefix = sequencePrefix;
        }

        public boolean isDedicatedConnection() {
            return this.dedicatedConnection;
        }

        public void setDedicatedConnection(boolean dedicatedConnection) {
            this.dedicatedConnection = dedicatedConnection;
        }
    }

    /**
     * The Cloud Spanner store. Without a DatabaseClient bean, the store's database is the one named here, on
     * the application's Spanner bean or, when there is none, on a Spanner client created from these
     * properties.
     */
    public static class Spanner {

        /** The SQL dialect of a Spanner database, as {@code seqgen.spanner.dialect} names it. */
        public enum SpannerDialect {
            /** Ask the database at start-up ({@code DatabaseClient.getDialect()}). */
            AUTO,
            /** GoogleSQL. */
            GOOGLE_STANDARD_SQL,
            /** PostgreSQL interface. */
            POSTGRESQL
        }

        /**
         * Google Cloud project of the Spanner instance. Default: the project of the Spanner bean, or of the
         * environment (GOOGLE_CLOUD_PROJECT, the gcloud configuration).
         */
        private @Nullable String projectId;

        /**
         * Spanner instance that holds the database. Required without a DatabaseClient bean.
         */
        private @Nullable String instanceId;

        /**
         * Spanner database that holds the sequence table. Required without a DatabaseClient bean.
         */
        private @Nullable String databaseId;

        /**
         * SQL dialect of the store's database: auto (the store asks the database once, at its first operation),
         * google-standard-sql or postgresql.
         */
        private SpannerDialect dialect = SpannerDialect.AUTO;

        /**
         * Host and port of a Cloud Spanner emulator (such as localhost:9010) for the Spanner client that
         * seqgen creates, without credentials. Default: the SPANNER_EMULATOR_HOST environment variable, if
         * set.
         */
        private @Nullable String emulatorHost;

        /**
         * Longest one operation of the store's own may take (a reservation, a read, a give-back), Spanner's
         * retries included. Keep it at or below the sequences' acquire timeout.
         */
        private Duration operationTimeout = Duration.ofSeconds(5);

        public @Nullable String getProjectId() {
            return this.projectId;
        }

        public void setProjectId(@Nullable String projectId) {
            this.projectId = projectId;
        }

        public @Nullable String getInstanceId() {
            return this.instanceId;
        }

        public void setInstanceId(@Nullable String instanceId) {
            this.instanceId = instanceId;
        }

        public @Nullable String getDatabaseId() {
            return this.databaseId;
        }

        public void setDatabaseId(@Nullable String databaseId) {
            this.databaseId = databaseId;
        }

        public @Nullable String getEmulatorHost() {
            return this.emulatorHost;
        }

        public void setEmulatorHost(@Nullable String emulatorHost) {
            this.emulatorHost = emulatorHost;
        }

        public SpannerDialect getDialect() {
            return this.dialect;
        }

        public void setDialect(SpannerDialect dialect) {
            this.dialect = dialect;
        }

        public Duration getOperationTimeout() {
            return this.operationTimeout;
        }

        public void setOperationTimeout(Duration operationTimeout) {
            this.operationTimeout = operationTimeout;
        }
    }

    /** Creation of seqgen's tables. */
    public static class Schema {

        /**
         * When seqgen creates its tables (the sequence table and its table of kept ranges, each only if it is
         * missing) at start-up, in the JDBC store's database or in Cloud Spanner: on embedded databases only
         * (embedded), always, or never (Flyway, Liquibase or a DBA create them).
         */
        private DatabaseInitializationMode initialize = DatabaseInitializationMode.EMBEDDED;

        public DatabaseInitializationMode getInitialize() {
            return this.initialize;
        }

        public void setInitialize(DatabaseInitializationMode initialize) {
            this.initialize = initialize;
        }

        /**
         * Whether seqgen creates its tables: always, never, or on an embedded database.
         *
         * @param embedded whether the database is embedded, asked only under {@code embedded}
         * @return whether to create the tables
         */
        public boolean initializes(BooleanSupplier embedded) {
            return initialize == DatabaseInitializationMode.ALWAYS
                    || initialize == DatabaseInitializationMode.EMBEDDED && embedded.getAsBoolean();
        }
    }

    /**
     * The settings of sequences, each optional, one type for {@code seqgen.defaults} and for every
     * {@code seqgen.sequences.<name>}: what a sequence does not set comes from {@code seqgen.defaults}, what
     * that does not set from seqgen's built-in defaults ({@link dev.seqgen.Setting#defaultValue()}; the
     * "Default:" of each description). Keys, types and rules are those of {@link dev.seqgen.Setting}: one
     * property per setting, found by its key ({@code SeqgenPropertiesTest} checks the names, types and stated
     * defaults against it).
     */
    public static class SequenceProperties {

        /**
         * How values are taken from the store: sync (in the caller's transaction, gapless), async (one store
         * transaction per value), batch (one per block), async-batch (one per block, refilled in the
         * background). Default: async-batch.
         */
        private @Nullable Strategy strategy;

        /**
         * Where values are counted: table (a row of seqgen's table; every strategy) or native-sequence (a
         * database sequence, no hot row; not for sync). One application may use both: the starter then gives the
         * registry a JDBC store of each kind. Default: the kind of the registry's store: table, unless the
         * registry is built over a native-sequence store.
         */
        private @Nullable CounterKind kind;

        /**
         * How counter values become the values handed out: sequential (1, 2, 3, ...) or bit-reversed (the
         * counter's 63 low bits reversed: unique, positive, spread over the key space, for primary keys on Cloud
         * Spanner; not for int ids). Default: sequential.
         */
        private @Nullable KeyOrder keyOrder;

        /**
         * Keys a bit-reversed sequence never hands out, written min..max (such as 1..99999): a counter whose key
         * falls in the range is passed over, so keys a table already holds there never collide. At most 2^62
         * values; only with key-order bit-reversed. Default: none.
         */
        private @Nullable KeyRange skipRange;

        /**
         * Number of values reserved per store transaction by batch and async-batch; also the most values one
         * stopped JVM can leave unused, unless the block adapts. Default: 1000.
         */
        private @Nullable Integer blockSize;

        /**
         * Number of values left in the block at which async-batch starts its background refill; less than the
         * block size. Set, it fixes the refill point; left unset (a quarter of the block), an adaptive
         * async-batch sequence moves the refill point up to what the store's latency requires. Default: a quarter
         * of the block size.
         */
        private @Nullable Integer lowWatermark;

        /**
         * Longest a caller waits for a value before it gets an exception. Default: 5s.
         */
        private @Nullable Duration acquireTimeout;

        /**
         * First value of a sequence whose row does not exist yet. An existing row is never changed. Default: 1.
         */
        private @Nullable Long initialValue;

        /**
         * Largest value a sequence hands out; reaching it is an error, never a wrap-around. Use 2147483647 for
         * int ids. Default: 9223372036854775806.
         */
        private @Nullable Long maxValue;

        private final AdaptiveProperties adaptive = new AdaptiveProperties();

        /**
         * Whether the configured strategy may replace a sync strategy that the code declares for the sequence
         * (@SeqgenGenerator, @SeqgenNumber, @SeqgenValue), giving up its gapless numbers; without it such a
         * configuration fails the start-up. Default: false.
         */
        private @Nullable Boolean allowWeakerStrategy;

        public @Nullable Strategy getStrategy() {
            return this.strategy;
        }

        public void setStrategy(@Nullable Strategy strategy) {
            this.strategy = strategy;
        }

        public @Nullable CounterKind getKind() {
            return this.kind;
        }

        public void setKind(@Nullable CounterKind kind) {
            this.kind = kind;
        }

        public @Nullable KeyOrder getKeyOrder() {
            return this.keyOrder;
        }

        public void setKeyOrder(@Nullable KeyOrder keyOrder) {
            this.keyOrder = keyOrder;
        }

        public @Nullable KeyRange getSkipRange() {
            return this.skipRange;
        }

        public void setSkipRange(@Nullable KeyRange skipRange) {
            this.skipRange = skipRange;
        }

        public @Nullable Integer getBlockSize() {
            return this.blockSize;
        }

        public void setBlockSize(@Nullable Integer blockSize) {
            this.blockSize = blockSize;
        }

        public @Nullable Integer getLowWatermark() {
            return this.lowWatermark;
        }

        public void setLowWatermark(@Nullable Integer lowWatermark) {
            this.lowWatermark = lowWatermark;
        }

        public @Nullable Duration getAcquireTimeout() {
            return this.acquireTimeout;
        }

        public void setAcquireTimeout(@Nullable Duration acquireTimeout) {
            this.acquireTimeout = acquireTimeout;
        }

        public @Nullable Long getInitialValue() {
            return this.initialValue;
        }

        public void setInitialValue(@Nullable Long initialValue) {
            this.initialValue = initialValue;
        }

        public @Nullable Long getMaxValue() {
            return this.maxValue;
        }

        public void setMaxValue(@Nullable Long maxValue) {
            this.maxValue = maxValue;
        }

        public AdaptiveProperties getAdaptive() {
            return this.adaptive;
        }

        public @Nullable Boolean getAllowWeakerStrategy() {
            return this.allowWeakerStrategy;
        }

        public void setAllowWeakerStrategy(@Nullable Boolean allowWeakerStrategy) {
            this.allowWeakerStrategy = allowWeakerStrategy;
        }
    }

    /** Adaptive block size and refill point, each optional. */
    public static class AdaptiveProperties {

        /**
         * Whether sequences adapt to what they measure: the block size to the refill rate (doubled when refills
         * come faster than the target interval, halved, never below the block size, when they come slower than
         * twice it), and for async-batch the refill point to the store's latency and the rate values are
         * taken, so callers do not wait. Default: on for async-batch, off for the other strategies.
         */
        private @Nullable Boolean enabled;

        /**
         * Largest block an adaptive sequence reserves, and so the largest gap a stopped JVM can leave. Must be
         * at least the block size when adaptive sizing is set on. Default: 100000.
         */
        private @Nullable Integer maxBlockSize;

        /**
         * Refill interval an adaptive sequence steers its block size towards. Default: 1s.
         */
        private @Nullable Duration targetRefillInterval;

        public @Nullable Boolean getEnabled() {
            return this.enabled;
        }

        public void setEnabled(@Nullable Boolean enabled) {
            this.enabled = enabled;
        }

        public @Nullable Integer getMaxBlockSize() {
            return this.maxBlockSize;
        }

        public void setMaxBlockSize(@Nullable Integer maxBlockSize) {
            this.maxBlockSize = maxBlockSize;
        }

        public @Nullable Duration getTargetRefillInterval() {
            return this.targetRefillInterval;
        }

        public void setTargetRefillInterval(@Nullable Duration targetRefillInterval) {
            this.targetRefillInterval = targetRefillInterval;
        }
    }

    /** The seqgen health indicator. */
    public static class Health {

        /**
         * Share of a sequence's range (from its initial to its maximum value) above which the health
         * indicator reports the WARNING status. Greater than 0, at most 1.
         */
        private double capacityWarningThreshold = 0.8;

        public double getCapacityWarningThreshold() {
            return this.capacityWarningThreshold;
        }

        public void setCapacityWarningThreshold(double capacityWarningThreshold) {
            this.capacityWarningThreshold = capacityWarningThreshold;
        }
    }

    /** The warm-up: the sequences' first blocks taken before the application reports itself ready. */
    public static class WarmUp {

        /**
         * Longest the start-up waits for the first blocks of the sequences, all of them together, before the
         * application reports itself ready; an application that has none by then fails to start, naming the
         * sequence. A start-up limit of its own, not a caller's acquire timeout: a fleet that starts at once is
         * served one first reservation at a time, about N x the row's transaction time for N instances (10 s for
         * 1,000 instances on a 10 ms row). A positive duration.
         */
        private Duration timeout = Duration.ofSeconds(60);

        public Duration getTimeout() {
            return this.timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** The series of sequences numbered per tenant, year or other key. */
    public static class Series {

        /**
         * How long a series may go unused before the registry releases it: its unused values go back to its row and
         * it is opened again at its next use, so that the JVM holds memory for the series in use. 0 keeps every
         * series open until the application stops.
         */
        private Duration idleTimeout = SequenceRegistry.DEFAULT_SERIES_IDLE_TIMEOUT;

        /**
         * Series to open, with their first blocks, before the application reports itself ready, by sequence: keys
         * such as acme/2026, comma-separated (seqgen.series.warm-up.invoices=acme/2026,globex/2026). Within
         * seqgen.warm-up.timeout, after the sequences' own warm-up. A sequence that entities number in series has
         * its series opened as their first entity would open them, above the numbers their rows already hold (read
         * through each tenant's own connection where tenants have schemas of their own); any other must be configured
         * under seqgen.sequences. An unknown sequence, or a key that is not one of its series, fails the start-up.
         */
        private Map<String, List<String>> warmUp = new LinkedHashMap<>();

        public Duration getIdleTimeout() {
            return this.idleTimeout;
        }

        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        public Map<String, List<String>> getWarmUp() {
            return this.warmUp;
        }

        public void setWarmUp(Map<String, List<String>> warmUp) {
            this.warmUp = warmUp;
        }
    }
}
