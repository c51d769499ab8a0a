package dev.seqgen.regression;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.CallCounter;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Regression, found by {@code .ci/flake-hunt} in the store conformance kit's "eight stores creating one sequence at
 * once" on H2: H2's {@code MERGE ... WHEN NOT MATCHED THEN INSERT} checks for the row and then inserts it, so a
 * creator that raced another saw no row, hit the primary key (SQLSTATE 23505) and failed the first use of the
 * sequence, although the row it wanted was there. The race is forced here: another transaction holds the row,
 * inserted and not yet committed, while a registry creates the sequence; it commits once the creator waits for it.
 */
class CreatorsRacingForOneRowOnH2HitThePrimaryKeyTest {

    @Test
    void aCreatorThatMeetsAnotherCreatorsRowUsesIt() throws Exception {
        TestDatabase h2 = TestDatabase.H2;
        String table = TestDatabase.uniqueTable();
        CallCounter connections = new CallCounter();
        JdbcSequenceStore store = JdbcSequenceStore.builder(connections.counting(DataSource.class, h2.dataSource()))
                .table(table).build();
        store.createTableIfMissing();
        int before = connections.calls();
        try (Connection holder = h2.dataSource().getConnection();
                SequenceRegistry registry = SequenceRegistry.builder(store).defaults(SequenceSettings.builder()
                        .strategy(Strategy.BATCH).blockSize(10).acquireTimeout(Duration.ofMinutes(1)).build())
                        .build()) {
            holder.setAutoCommit(false);
            try (Statement insert = holder.createStatement()) {
                insert.executeUpdate("INSERT INTO " + table + " (name, next_value) VALUES ('orders', 500)");
            }
            AtomicReference<Thread> creatorThread = new AtomicReference<>();
            CompletableFuture<Sequence> creator = CompletableFuture.supplyAsync(() -> {
                creatorThread.set(Thread.currentThread());
                return registry.sequence("orders");
            }, Concurrently.OWN_THREAD);
            // The creator has met the held row: it is inside H2's MERGE (which waits for the other transaction) or
            // pauses before a retry, or it has tried twice, or it has given up.
            await().atMost(Duration.ofMinutes(1)).until(() -> creator.isDone() || connections.calls() >= before + 2
                    || waitingAtTheRow(creatorThread.get()));
            holder.commit();

            Sequence orders = creator.get(1, TimeUnit.MINUTES);
            assertThat(orders.next()).as("the row the other creator made").isEqualTo(500);
        } finally {
            h2.dropTable(table);
        }
    }

    private static boolean waitingAtTheRow(Thread creator) {
        return creator != null && Arrays.stream(creator.getStackTrace()).anyMatch(frame -> frame.getClassName()
                .startsWith("org.h2.command.dml.MergeUsing") || frame.getClassName().equals("dev.seqgen.Backoff"));
    }
}
