package dev.seqgen.reliability;

import dev.seqgen.testing.Slow;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regression, found by {@link ConnectionCutTest}: when a pooled connection died under a reservation (a server
 * restart closes the pool's idle connections, and the pool hands one out before it notices), the lost
 * connection error (SQLSTATE 08006, transient) was replaced by the error of restoring auto-commit in a
 * {@code finally} block: HikariCP answers every call on a connection it has marked broken with "Connection is
 * closed" and no SQLSTATE, which is not transient. So the reservation failed at once with
 * "the postgresql store failed" instead of being retried on a fresh connection.
 */
@Slow
class RestoringAutoCommitHidTheLostConnectionTest {

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    static Stream<TestDatabase> servers() {
        return Stream.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aReservationOnAConnectionThatDiedInThePoolIsRetriedOnAFreshOne(TestDatabase database) throws Exception {
        DatabaseServer server = DatabaseServer.of(database);
        TcpProxy proxy = TcpProxy.to(server.host(), server.port());
        resources.add(proxy);
        // One connection, handed out again without validation (used less than 500 ms ago).
        HikariDataSource pool = server.pool(server.urlVia(proxy.port(), ""), 1, config -> {
            config.setConnectionTimeout(2_000);
        });
        resources.add(pool);
        String table = TestDatabase.uniqueTable();
        resources.add(() -> database.dropTable(table));
        JdbcSequenceStore store = JdbcSequenceStore.builder(pool).table(table).build();
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(SequenceSettings.builder()
                .strategy(Strategy.ASYNC).acquireTimeout(Duration.ofSeconds(5)).build()).build();
        resources.add(registry);
        Sequence orders = registry.sequence("orders");
        assertThat(orders.next()).isEqualTo(1);

        proxy.cut(TcpProxy.Cut.RESET); // the server "restarts": the pooled connection dies
        proxy.restore();

        assertThat(orders.next()).as("retried on a new connection").isEqualTo(2);
        assertThat(orders.stats().reservationFailures()).isLessThanOrEqualTo(1);
        assertThat(orders.stats().retries()).isEqualTo(orders.stats().reservationFailures());
    }
}
