package dev.seqgen.jdbc;

import dev.seqgen.Strategy;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.CallCounter;
import dev.seqgen.testing.TestDatabase;
import dev.seqgen.testing.conformance.StoreUnderTest;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;

/**
 * The native-sequence store on one database, a sequence-name prefix of its own per store, for the conformance kit.
 * No SYNC, no give-back (a database sequence has no compare-and-set), no row to edit by hand.
 */
final class NativeStoreUnderTest implements StoreUnderTest {

    private static final Load LOAD = new Load(4_167, 500, 0, 300, 8, 1_000, Duration.ofSeconds(30));

    private final TestDatabase database;
    private final List<String> prefixes = new CopyOnWriteArrayList<>();

    NativeStoreUnderTest(TestDatabase database) {
        this.database = database;
    }

    @Override
    public SequenceStore newStore() {
        String prefix = TestDatabase.uniqueTable() + "_";
        prefixes.add(prefix);
        return NativeSequenceStore.builder(database.dataSource()).prefix(prefix).build();
    }

    @Override
    public SequenceStore sameRows(SequenceStore store) {
        return NativeSequenceStore.builder(database.dataSource()).prefix(((NativeSequenceStore) store).prefix())
                .build();
    }

    @Override
    public Observed newObservedStore() {
        CallCounter counter = new CallCounter();
        DataSource counted = counter.counting(DataSource.class, database.dataSource());
        return new Observed(NativeSequenceStore.builder(counted).prefix(TestDatabase.uniqueTable() + "_")
                .dialect(JdbcDialect.valueOf(database.name())).build(), counter);
    }

    @Override
    public List<Strategy> strategies() {
        return List.of(Strategy.ASYNC, Strategy.BATCH, Strategy.ASYNC_BATCH);
    }

    @Override
    public boolean consecutiveAsyncValues() {
        return false;
    }

    @Override
    public Load load() {
        return LOAD;
    }

    @Override
    public void dropAll() {
        for (String prefix : prefixes) {
            for (String sequence : sequencesStartingWith(prefix)) {
                database.execute("DROP SEQUENCE IF EXISTS " + JdbcDialect.valueOf(database.name()).quote(sequence));
            }
        }
        prefixes.clear();
    }

    private List<String> sequencesStartingWith(String prefix) {
        String sql = switch (database) {
            case H2 -> "SELECT SEQUENCE_NAME FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_NAME LIKE ?";
            case POSTGRESQL -> "SELECT sequence_name FROM information_schema.sequences WHERE sequence_name LIKE ?";
            case MARIADB -> "SELECT table_name FROM information_schema.tables WHERE table_type = 'SEQUENCE'"
                    + " AND table_schema = DATABASE() AND table_name LIKE ?";
            case HSQLDB -> "SELECT SEQUENCE_NAME FROM INFORMATION_SCHEMA.SYSTEM_SEQUENCES WHERE SEQUENCE_NAME LIKE ?";
        };
        List<String> names = new ArrayList<>();
        try (Connection connection = database.dataSource().getConnection();
                PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, prefix + "%");
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not list the sequences of " + prefix + " on " + database, e);
        }
        return names;
    }

    @Override
    public String toString() {
        return "NativeSequenceStore on " + database;
    }
}
