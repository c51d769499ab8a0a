package dev.seqgen.jdbc;

import dev.seqgen.spi.Identifiers;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.CallCounter;
import dev.seqgen.testing.TestDatabase;
import dev.seqgen.testing.conformance.StoreUnderTest;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import javax.sql.DataSource;

/** The JDBC table store on one database, a table of its own per store, for the conformance kit. */
final class TableStoreUnderTest implements StoreUnderTest {

    // 3 registries x 8 threads: 100,000 values of BATCH and ASYNC_BATCH, 30,000 of SYNC and ASYNC (a store
    // transaction each on the one contended row).
    private static final Load LOAD = new Load(4_167, 1_250, 300, 300, 8, 1_000, Duration.ofSeconds(30));

    private final TestDatabase database;
    private final List<String> tables = new CopyOnWriteArrayList<>();

    TableStoreUnderTest(TestDatabase database) {
        this.database = database;
    }

    @Override
    public SequenceStore newStore() {
        String table = TestDatabase.uniqueTable();
        tables.add(table);
        return JdbcSequenceStore.builder(database.dataSource()).table(table).build();
    }

    @Override
    public SequenceStore sameRows(SequenceStore store) {
        return JdbcSequenceStore.builder(database.dataSource()).table(((JdbcSequenceStore) store).table()).build();
    }

    @Override
    public Observed newObservedStore() {
        String table = TestDatabase.uniqueTable();
        tables.add(table);
        CallCounter counter = new CallCounter();
        DataSource counted = counter.counting(DataSource.class, database.dataSource());
        return new Observed(JdbcSequenceStore.builder(counted).table(table)
                .dialect(JdbcDialect.valueOf(database.name())).build(), counter);
    }

    @Override
    public <T> T inTransaction(Function<Object, T> work) {
        return inTransaction(database.dataSource(), work);
    }

    /** Runs work in a transaction on its own pooled connection, committing it; a RuntimeException rolls it back. */
    static <T> T inTransaction(DataSource dataSource, Function<Object, T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.apply(connection);
                connection.commit();
                return result;
            } catch (RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void setNextValue(SequenceStore store, String sequence, long nextValue) {
        database.execute("UPDATE " + ((JdbcSequenceStore) store).table() + " SET next_value = " + nextValue
                + " WHERE name = '" + sequence + "'");
    }

    @Override
    public Load load() {
        return LOAD;
    }

    @Override
    public void dropAll() {
        tables.forEach(table -> {
            database.dropTable(table);
            database.dropTable(Identifiers.keptTableName(table));
        });
        tables.clear();
    }

    @Override
    public String toString() {
        return "JdbcSequenceStore on " + database;
    }
}
