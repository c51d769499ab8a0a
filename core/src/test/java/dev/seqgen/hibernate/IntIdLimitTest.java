package dev.seqgen.hibernate;

import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.Strategy;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Id types: an {@code int} id stops at the {@code int} limit with a clear error; other types fail at startup. */
class IntIdLimitTest {

    private static final String PREFIX = HibernateTesting.prefix("hil_");

    static Stream<Arguments> databasesAndStrategies() {
        return TestDatabase.all().flatMap(db -> Arrays.stream(Strategy.values()).map(s -> Arguments.of(db, s)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("databasesAndStrategies")
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void intIdsEndAtIntegerMaxValueWithSequenceExhaustedNeverAWrap(TestDatabase db, Strategy strategy) {
        String seqgenTable = TestDatabase.uniqueTable();
        // Blocks of 3: the second block is cut short by the end of the int range.
        Map<String, Object> settings = Map.of(SeqgenHibernate.SEQUENCES_PREFIX + "int_counter.strategy",
                strategy.externalName(), SeqgenHibernate.SEQUENCES_PREFIX + "int_counter.block-size", "3");
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                settings, IntCounter.class)) {
            List<Integer> ids = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                IntCounter counter = new IntCounter();
                HibernateTesting.inTransaction(sessionFactory, session -> session.persist(counter));
                ids.add(counter.id());
            }
            assertThat(ids).containsExactly(Integer.MAX_VALUE - 4, Integer.MAX_VALUE - 3, Integer.MAX_VALUE - 2,
                    Integer.MAX_VALUE - 1, Integer.MAX_VALUE);

            assertThatThrownBy(() -> HibernateTesting.inTransaction(sessionFactory,
                    session -> session.persist(new IntCounter())))
                    .satisfies(e -> assertThat(HibernateTesting.rootCause(e))
                            .isInstanceOf(SequenceExhaustedException.class)
                            .hasMessageContaining("int_counter")
                            .hasMessageContaining(String.valueOf(Integer.MAX_VALUE)));
            assertThat(HibernateTesting.ids(db.dataSource(), PREFIX + "int_counter")).hasSize(5);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void anIdOfAnotherTypeFailsAtStartupNamingTheEntityAndProperty(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        try {
            assertThatThrownBy(() -> HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable, Map.of(),
                    StringIdEntity.class).close())
                    .satisfies(e -> assertThat(HibernateTesting.messages(e))
                            .contains("dev.seqgen.hibernate.StringIdEntity")
                            .contains("id property 'code'")
                            .contains("long/Long and int/Integer")
                            .contains("java.lang.String"));
        } finally {
            db.dropTable(seqgenTable);
        }
    }
}
