package dev.seqgen.boot.autoconfigure;

import dev.seqgen.CounterKind;
import dev.seqgen.boot.autoconfigure.SeqgenProperties.SequenceProperties;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.spi.SequenceStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.util.ClassUtils;

/** seqgen's JDBC stores over the {@link DataSource}, one per {@link CounterKind}; those beside the bean closed here. */
final class JdbcStores implements DisposableBean {

    private final DataSource dataSource;
    private final SeqgenProperties properties;
    private final @Nullable JdbcSchema schema;
    private final Set<SequenceStore> built = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<CounterKind, SequenceStore> additional = new EnumMap<>(CounterKind.class);

    JdbcStores(DataSource dataSource, SeqgenProperties properties, @Nullable JdbcSchema schema) {
        this.dataSource = dataSource;
        this.properties = properties;
        this.schema = schema;
    }

    /** Every kind the configuration names: {@code seqgen.defaults.kind} (table when unset) and each sequence's. */
    static Set<CounterKind> configuredKinds(SeqgenProperties properties) {
        Set<CounterKind> kinds = EnumSet.of(Objects.requireNonNullElse(properties.getDefaults().getKind(),
                CounterKind.TABLE));
        properties.getSequences().values().stream().map(SequenceProperties::getKind).filter(Objects::nonNull)
                .forEach(kinds::add);
        return kinds;
    }

    /** The table store, which creates its tables now if {@code seqgen.schema.initialize} says so. */
    synchronized JdbcSequenceStore buildTable() {
        boolean createsTables = createsTables(properties, dataSource);
        nativeSequenceBuilder(); // refuses a wrong prefix even when no sequence uses it
        JdbcSequenceStore store = track(tableBuilder().createTable(createsTables)
                .dedicatedConnection(dedicatedConnection())::build);
        if (createsTables) {
            store.createTableIfMissing();
        }
        return store;
    }

    synchronized NativeSequenceStore buildNativeSequence() {
        tableBuilder(); // refuses a wrong table name even when no sequence uses it
        return track(nativeSequenceBuilder().dedicatedConnection(dedicatedConnection())::build);
    }

    /** The store of a kind beside the registry's own, built once and closed with this object. */
    synchronized SequenceStore additional(CounterKind kind) {
        return additional.computeIfAbsent(kind, k -> k == CounterKind.TABLE ? buildTable() : buildNativeSequence());
    }

    synchronized boolean built(SequenceStore store) {
        return built.contains(store);
    }

    @Override
    public synchronized void destroy() {
        List<RuntimeException> failures = new ArrayList<>();
        for (SequenceStore store : additional.values()) {
            try {
                if (store instanceof AutoCloseable closeable) {
                    closeable.close();
                }
            } catch (Exception e) {
                failures.add(e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e));
            }
        }
        additional.clear();
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    /** Whether each store keeps a connection of its own; the pool's room for it is checked then. */
    private boolean dedicatedConnection() {
        boolean dedicated = properties.getJdbc().isDedicatedConnection();
        if (dedicated && schema != null) {
            schema.requireRoomForTheDedicatedConnection();
        }
        return dedicated;
    }

    private JdbcSequenceStore.Builder tableBuilder() {
        return JdbcSequenceStore.builder(dataSource).table(properties.getTable(), "seqgen.table");
    }

    private NativeSequenceStore.Builder nativeSequenceBuilder() {
        return NativeSequenceStore.builder(dataSource)
                .prefix(properties.getJdbc().getSequencePrefix(), "seqgen.jdbc.sequence-prefix");
    }

    /** Whether {@code seqgen.schema.initialize} creates the tables (embedded: as Boot tells, or without Boot JDBC). */
    static boolean createsTables(SeqgenProperties properties, DataSource dataSource) {
        return properties.getSchema().initializes(() -> !ClassUtils.isPresent(
                "org.springframework.boot.jdbc.EmbeddedDatabaseConnection", null)
                || EmbeddedDatabaseConnection.isEmbedded(dataSource));
    }

    /** Builds a store and records it, failing with the action to take when seqgen has no dialect for the database. */
    private <T extends SequenceStore> T track(Supplier<T> build) {
        try {
            T store = build.get();
            built.add(store);
            return store;
        } catch (IllegalArgumentException unsupported) {
            throw new SeqgenSetupException(unsupported.getMessage(), "Keep seqgen's sequences in a database it"
                    + " supports: point the application's DataSource at one, or give seqgen a store of its own (a"
                    + " SequenceStore bean); or set seqgen.enabled=false to leave seqgen out.", unsupported);
        }
    }
}
