package dev.seqgen.jdbc;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.spi.Identifiers;
import java.util.Objects;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Builds seqgen's JDBC stores over one {@link DataSource}, one per {@link dev.seqgen.CounterKind}, as a front end configures
 * them: the Hibernate generator from its plain settings, the Spring Boot starter from its properties. Both front
 * ends build their stores here, so a store is made the same way whichever configured it. A table name or prefix
 * that is not allowed is refused when it is set, under the name of the setting that gave it, so the user learns
 * which key to change.
 *
 * <p>Set the factory up, then build: each {@code build} call makes a new store (the dialect is detected on one
 * connection, and a dedicated connection is borrowed then), which the caller owns and closes. Not thread-safe while
 * being set up.
 */
public final class JdbcStoreFactory {

    private final DataSource dataSource;
    private boolean dedicatedConnection;
    private String table = JdbcSequenceStore.DEFAULT_TABLE;
    private boolean createTable = true;
    private String prefix = NativeSequenceStore.DEFAULT_PREFIX;

    private JdbcStoreFactory(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * Returns a factory of the stores over a data source, with every store's defaults.
     *
     * @param dataSource the application's data source
     * @return the factory
     */
    public static JdbcStoreFactory over(DataSource dataSource) {
        return new JdbcStoreFactory(dataSource);
    }

    /**
     * Sets whether each store keeps one connection of the data source for its own statements (see
     * {@link JdbcSequenceStore.Builder#dedicatedConnection(boolean)}). Default false.
     *
     * @param dedicatedConnection whether each store keeps a connection of its own
     * @return this factory
     */
    public JdbcStoreFactory dedicatedConnection(boolean dedicatedConnection) {
        this.dedicatedConnection = dedicatedConnection;
        return this;
    }

    /**
     * Sets the table store's table, optionally schema-qualified. Default {@value JdbcSequenceStore#DEFAULT_TABLE}.
     *
     * @param table the table name
     * @param setting the name of the setting that gave it, named by the exception when the name is not allowed
     * @return this factory
     * @throws SequenceConfigurationException if the name is not a plain identifier
     */
    public JdbcStoreFactory table(String table, String setting) {
        this.table = Identifiers.requireTableName(setting, table);
        return this;
    }

    /**
     * Sets whether the table store creates its table when the first sequence is created (see
     * {@link JdbcSequenceStore.Builder#createTable(boolean)}). Default true.
     *
     * @param createTable whether the store creates its table
     * @return this factory
     */
    public JdbcStoreFactory createTable(boolean createTable) {
        this.createTable = createTable;
        return this;
    }

    /**
     * Sets the prefix of the native-sequence store's database sequences (see
     * {@link NativeSequenceStore.Builder#prefix(String)}). Default {@value NativeSequenceStore#DEFAULT_PREFIX}.
     *
     * @param prefix the prefix
     * @param setting the name of the setting that gave it, named by the exception when the prefix is not allowed
     * @return this factory
     * @throws SequenceConfigurationException if the prefix is not 1 to 32 of {@code A-Z a-z 0-9 _}, starting with
     *     a letter or underscore
     */
    public JdbcStoreFactory prefix(@Nullable String prefix, String setting) {
        this.prefix = NativeSequenceStore.requirePrefix(setting, prefix);
        return this;
    }

    /**
     * Builds the table store.
     *
     * @return a new store, owned by the caller
     * @throws dev.seqgen.spi.SequenceStoreException if the dialect could not be detected
     * @throws IllegalArgumentException if the database is not supported
     */
    public JdbcSequenceStore buildTableStore() {
        return JdbcSequenceStore.builder(dataSource).table(table).createTable(createTable)
                .dedicatedConnection(dedicatedConnection).build();
    }

    /**
     * Builds the native-sequence store.
     *
     * @return a new store, owned by the caller
     * @throws dev.seqgen.spi.SequenceStoreException if the dialect could not be detected
     * @throws IllegalArgumentException if the database is not supported, or has no contiguous sequences (Cloud
     *     Spanner)
     */
    public NativeSequenceStore buildNativeSequenceStore() {
        return NativeSequenceStore.builder(dataSource).prefix(prefix).dedicatedConnection(dedicatedConnection).build();
    }
}
