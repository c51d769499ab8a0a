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

/** Configuration properties under {@code seqgen.*}; a value seqgen does not accept fails the start-up. */
@ConfigurationProperties("seqgen")
public class SeqgenProperties {

    /** Whether to enable the seqgen auto-configuration. */
    private boolean enabled = true;

    /** Where the sequences' rows live: auto, jdbc (the DataSource) or spanner (Cloud Spanner). */
    private StoreType store = StoreType.AUTO;

    /** Table of one row per sequence, optionally schema.table; unquoted letters, digits and underscores. */
    private String table = "seqgen_sequences";

    private final Schema schema = new Schema();
    private final Jdbc jdbc = new Jdbc();
    private final Spanner spanner = new Spanner();

    /** Settings of every sequence that does not set its own. */
    private final SequenceProperties defaults = new SequenceProperties();

    /** Settings of individual sequences by name, over the defaults; names with dots or capitals need [brackets]. */
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
        /** The only DataSource, otherwise Cloud Spanner, otherwise the SequenceStore bean. */
        AUTO,
        /** The application's DataSource. */
        JDBC,
        /** Cloud Spanner, through the seqgen-spanner module. */
        SPANNER
    }

    /** The JDBC store. */
    public static class Jdbc {

        /** Prefix of the native-sequence database sequences; letters, digits, underscores, not a leading digit. */
        private String sequencePrefix = "seqgen_";

        /** Whether the JDBC store keeps one pooled connection for its own statements, so reservations never wait. */
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

    /** The Cloud Spanner store: without a DatabaseClient bean, the database named here. */
    public static class Spanner {

        /** The SQL dialect of a Spanner database. */
        public enum SpannerDialect {
            /** Ask the database at start-up ({@code DatabaseClient.getDialect()}). */
            AUTO,
            /** GoogleSQL. */
            GOOGLE_STANDARD_SQL,
            /** PostgreSQL interface. */
            POSTGRESQL
        }

        /** Google Cloud project of the instance. Default: the Spanner bean's, else GOOGLE_CLOUD_PROJECT or gcloud's. */
        private @Nullable String projectId;

        /** Spanner instance that holds the database. Required without a DatabaseClient bean. */
        private @Nullable String instanceId;

        /** Spanner database that holds the sequence table. Required without a DatabaseClient bean. */
        private @Nullable String databaseId;

        /** SQL dialect of the database: auto (asked at the first operation), google-standard-sql or postgresql. */
        private SpannerDialect dialect = SpannerDialect.AUTO;

        /** Spanner emulator host:port for the client seqgen creates. Default: the SPANNER_EMULATOR_HOST variable. */
        private @Nullable String emulatorHost;

        /** Longest one store operation may take, retries included; at most the sequences' acquire timeout. */
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

        /** When seqgen creates its missing tables at start-up: embedded (databases only), always or never. */
        private DatabaseInitializationMode initialize = DatabaseInitializationMode.EMBEDDED;

        public DatabaseInitializationMode getInitialize() {
            return this.initialize;
        }

        public void setInitialize(DatabaseInitializationMode initialize) {
            this.initialize = initialize;
        }

        /** Whether seqgen creates its tables; {@code embedded} is asked only under {@code embedded}. */
        public boolean initializes(BooleanSupplier embedded) {
            return initialize == DatabaseInitializationMode.ALWAYS
                    || initialize == DatabaseInitializationMode.EMBEDDED && embedded.getAsBoolean();
        }
    }

    /** The settings of a sequence, one per {@link dev.seqgen.Setting}; unset falls back to the defaults. */
    public static class SequenceProperties {

        /** How values are taken from the store: sync (gapless), async, batch or async-batch. Default: async-batch. */
        private @Nullable Strategy strategy;

        /**
         * Where values are counted: table or native-sequence (not for sync). Default: the kind of the registry's store:
         * table, unless the registry is built over a native-sequence store.
         */
        private @Nullable CounterKind kind;

        /** How counters become values: sequential or bit-reversed (Spanner keys, not int ids). Default: sequential. */
        private @Nullable KeyOrder keyOrder;

        /** Keys a bit-reversed sequence skips, as min..max (existing keys); at most 2^62 values. Default: none. */
        private @Nullable KeyRange skipRange;

        /** Values reserved per store transaction by batch and async-batch (a stopped JVM's gap). Default: 1000. */
        private @Nullable Integer blockSize;

        /**
         * Values left at which async-batch refills; less than block-size, adaptive if unset. Default: a quarter of the
         * block size.
         */
        private @Nullable Integer lowWatermark;

        /** Longest a caller waits for a value before it gets an exception. Default: 5s. */
        private @Nullable Duration acquireTimeout;

        /** First value of a sequence whose row does not exist yet (existing rows stay). Default: 1. */
        private @Nullable Long initialValue;

        /** Largest value handed out (reaching it is an error); 2147483647 for int ids. Default: 9223372036854775806. */
        private @Nullable Long maxValue;

        private final AdaptiveProperties adaptive = new AdaptiveProperties();

        /** Whether this strategy may replace a sync one declared in code, giving up gapless numbers. Default: false. */
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

        /** Whether block size and refill point adapt. Default: on for async-batch, off for the other strategies. */
        private @Nullable Boolean enabled;

        /** Largest block (and gap of a stopped JVM) of an adaptive sequence, at least block-size. Default: 100000. */
        private @Nullable Integer maxBlockSize;

        /** Refill interval an adaptive sequence steers its block size towards. Default: 1s. */
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

        /** Used share of a sequence's range above which health reports WARNING. Greater than 0, at most 1. */
        private double capacityWarningThreshold = 0.8;

        public double getCapacityWarningThreshold() {
            return this.capacityWarningThreshold;
        }

        public void setCapacityWarningThreshold(double capacityWarningThreshold) {
            this.capacityWarningThreshold = capacityWarningThreshold;
        }
    }

    /** The warm-up: first blocks taken before the application reports itself ready. */
    public static class WarmUp {

        /** Longest the start-up waits for all sequences' first blocks; one missing by then fails it. Positive. */
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

        /** How long an unused series stays open before its unused values go back to its row; 0: never released. */
        private Duration idleTimeout = SequenceRegistry.DEFAULT_SERIES_IDLE_TIMEOUT;

        /** Series to warm up, by sequence, keys comma-separated; an unknown sequence or key fails the start-up. */
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
