package dev.seqgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Four advances of one database sequence racing each other and a reader, many times over. On PostgreSQL the
 * advance used to take its lock with {@code ALTER SEQUENCE ... NO CYCLE}, which also rewrites the sequence into a
 * new file in the advancing transaction: an advance that came next could read the sequence as it was before the
 * previous one (four advances asking for 2,000, 3,000, 2,500 and 1,500 left it at 2,500, with the 1,500 reporting
 * that it moved it), and a reader holding only a share lock failed with "could not read blocks ... read only 0 of
 * 8192 bytes". One round in a hundred or so showed either on an idle machine. Now the lock is taken by
 * {@code ALTER SEQUENCE ... OWNER TO} the current owner, which rewrites nothing. The rounds observe a random
 * interleaving and assert only what holds in every one: the highest target wins, nobody fails.
 */
class RacingAdvancesRewroteThePostgresqlSequenceTest {

    private static final int ROUNDS = 100;
    private static final long[] TARGETS = {2_000, 3_000, 2_500, 1_500};

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void racingAdvancesAndReadersAgreeOnTheHighestTargetInEveryRound(TestDatabase database) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(TARGETS.length + 1);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                String prefix = TestDatabase.uniqueTable() + "_";
                SequenceStore store = NativeSequenceStore.builder(database.dataSource()).prefix(prefix).build();
                store.createSequence("orders", SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10)
                        .initialValue(1).build());
                assertThat(store.advance("orders", 1_000)).isTrue();
                CyclicBarrier start = new CyclicBarrier(TARGETS.length + 1);
                List<Future<Boolean>> advances = new ArrayList<>();
                for (long target : TARGETS) {
                    SequenceStore racer = NativeSequenceStore.builder(database.dataSource()).prefix(prefix).build();
                    advances.add(pool.submit(() -> {
                        start.await(30, TimeUnit.SECONDS);
                        return racer.advance("orders", target);
                    }));
                }
                Future<Long> reader = pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    long highestSeen = 0;
                    for (int read = 0; read < 20; read++) {
                        long next = store.nextValue("orders").orElseThrow();
                        assertThat(next).as("never backwards").isGreaterThanOrEqualTo(highestSeen);
                        highestSeen = next;
                    }
                    return highestSeen;
                });
                int moved = 0;
                for (Future<Boolean> advance : advances) {
                    moved += get(advance, round) ? 1 : 0;
                }
                assertThat(get(reader, round)).as("round %d: what the reader saw", round).isBetween(1_000L, 3_000L);
                assertThat(store.nextValue("orders")).as("round %d: the highest target", round).hasValue(3_000);
                assertThat(moved).as("round %d: advances that moved it (the 3,000 always does, if last)", round)
                        .isBetween(1, TARGETS.length);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T> T get(Future<T> task, int round) throws Exception {
        try {
            return task.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("round " + round + ": " + e.getCause(), e.getCause());
        }
    }
}
