package dev.seqgen.regression;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A SYNC caller whose transaction took its snapshot before another caller used up the sequence. The guarded
 * update compares against the committed row and matches nothing; the fallback read used to run in the caller's
 * snapshot (MariaDB/MySQL at REPEATABLE READ), saw the old value, sized the same block again and looped for ever
 * while holding the row lock. Now the fallback is a locking read of the committed value: the caller is told the
 * sequence is exhausted (or, on PostgreSQL and H2 at REPEATABLE READ, gets the database's serialization failure), at once,
 * and the next caller is not left queueing on the lock. Every database at REPEATABLE READ and READ COMMITTED.
 */
class SyncNearTheMaximumReadAStaleSnapshotTest {

    private static final long MAX = 100;

    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanups.forEach(Runnable::run);
    }

    static Stream<Arguments> databasesAndIsolations() {
        return TestDatabase.all().flatMap(db -> Stream.of(
                Arguments.of(db, "REPEATABLE READ", Connection.TRANSACTION_REPEATABLE_READ),
                Arguments.of(db, "READ COMMITTED", Connection.TRANSACTION_READ_COMMITTED)));
    }

    @ParameterizedTest(name = "{0} at {1}")
    @MethodSource("databasesAndIsolations")
    void aCallerWithAnOldSnapshotIsToldTheSequenceIsExhaustedInsteadOfLooping(TestDatabase database,
            String isolationName, int isolation) throws Exception {
        String table = TestDatabase.uniqueTable();
        cleanups.add(() -> database.dropTable(table));
        JdbcSequenceStore store = JdbcSequenceStore.builder(database.dataSource()).table(table).build();
        SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.SYNC).maxValue(MAX).build()).build();
        cleanups.add(0, registry::close);
        Sequence invoices = registry.sequence("invoices");

        try (Connection a = database.dataSource().getConnection();
                Connection b = database.dataSource().getConnection();
                Connection c = database.dataSource().getConnection()) {
            a.setAutoCommit(false);
            a.setTransactionIsolation(isolation);
            try (Statement statement = a.createStatement();
                    ResultSet rs = statement.executeQuery("SELECT next_value FROM " + table)) {
                assertThat(rs.next()).isTrue(); // A's snapshot: the row at 1
            }

            b.setAutoCommit(false);
            assertThat(invoices.nextValuesInTransaction(b, (int) MAX)).hasSize((int) MAX).startsWith(1L)
                    .endsWith(MAX);
            b.commit();

            Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> catchThrowable(() -> invoices.nextInTransaction(a)),
                    "a SYNC caller with an old snapshot must not loop");
            a.rollback();
            if (database != TestDatabase.MARIADB && isolation == Connection.TRANSACTION_REPEATABLE_READ) {
                // PostgreSQL and H2 refuse the update of a row changed after the snapshot: SQLSTATE 40001.
                assertThat(failure).satisfiesAnyOf(
                        f -> assertThat(f).isInstanceOf(SequenceExhaustedException.class),
                        f -> assertThat(f).hasStackTraceContaining("40001"));
            } else {
                assertThat(failure).isInstanceOf(SequenceExhaustedException.class).hasMessageContaining("invoices");
            }

            c.setAutoCommit(false);
            c.setTransactionIsolation(isolation);
            Throwable next = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> catchThrowable(() -> invoices.nextInTransaction(c)));
            c.rollback();
            assertThat(next).isInstanceOf(SequenceExhaustedException.class);
        }
    }
}
