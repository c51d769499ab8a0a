package dev.seqgen.hibernate;

import dev.seqgen.testing.LogRecords;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The start-up checks Hibernate makes for its own pooled optimizers and skips for custom ones, made by seqgen
 * for {@link SeqgenPooledOptimizer}: {@code hibernate.id.sequence.increment_size_mismatch_strategy} honoured
 * as {@code pooled} honours it, and dialects whose sequences cannot serve pooled blocks refused at start-up.
 * The database sequence steps by 10 where the mapping says {@code allocationSize = 50}.
 */
class PooledOptimizerStartUpChecksTest {

    private static final String SEQUENCE = "hpo_mismatched_seq";

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void byDefaultAMismatchFailsTheSessionFactoryNamingTheSequenceAndBothIncrements(TestDatabase db) {
        withSequenceSteppingBy10(db, () -> assertThatThrownBy(() -> sessionFactory(db, null).close())
                .satisfies(e -> assertThat(HibernateTesting.messages(e))
                        .contains("MismatchedOrder").containsIgnoringCase(SEQUENCE)
                        .contains("steps by 10 but the id's allocationSize is 50")
                        .contains(AvailableSettings.SEQUENCE_INCREMENT_SIZE_MISMATCH_STRATEGY + "=fix")));
    }

    /**
     * A sequence that steps by the allocation size, as the start-up check read it: the first use reads it once,
     * as {@code pooled} does (it used to read it twice to find the increment out, leaving the sequence a block
     * further on than {@code pooled} would: 101 where {@code pooled} leaves 51).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aSequenceSteppingByTheAllocationSizeIsReadOnceAtFirstUseAsPooledDoes(TestDatabase db) {
        db.dropTable("hpo_mismatched_order");
        db.execute("DROP SEQUENCE IF EXISTS " + SEQUENCE);
        db.execute("CREATE SEQUENCE " + SEQUENCE + " START WITH 1 INCREMENT BY 50");
        db.execute("CREATE TABLE hpo_mismatched_order (id BIGINT NOT NULL PRIMARY KEY)");
        try (SessionFactory node = sessionFactory(db, null)) {
            MismatchedOrder order = new MismatchedOrder();
            HibernateTesting.inTransaction(node, session -> session.persist(order));
            assertThat(order.id()).isEqualTo(1);
            assertThat(nextDatabaseValue(db)).as("the sequence's next value, as pooled leaves it").isEqualTo(51);
        } finally {
            db.dropTable("hpo_mismatched_order");
            db.execute("DROP SEQUENCE IF EXISTS " + SEQUENCE);
        }
    }

    private static long nextDatabaseValue(TestDatabase db) {
        String sql = switch (db) {
            case POSTGRESQL -> "SELECT nextval('" + SEQUENCE + "')";
            case MARIADB -> "SELECT NEXTVAL(" + SEQUENCE + ")";
            default -> "VALUES NEXT VALUE FOR " + SEQUENCE;
        };
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void fixTakesTheDatabaseIncrementAndRunsBesidePooledWithFixWithoutDuplicates(TestDatabase db) {
        withSequenceSteppingBy10(db, () -> {
            Map<String, Object> pooledFix = new HashMap<>(settings("fix"));
            pooledFix.remove(AvailableSettings.PREFERRED_POOLED_OPTIMIZER);
            try (SessionFactory seqgenNode = sessionFactory(db, "fix");
                    SessionFactory pooledNode = HibernateTesting.sessionFactory(db.dataSource(), "hpo_", "unused",
                            pooledFix, MismatchedOrder.class)) {
                List<Long> ids = new ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    SessionFactory node = i % 3 == 0 ? pooledNode : seqgenNode;
                    MismatchedOrder order = new MismatchedOrder();
                    HibernateTesting.inTransaction(node, session -> session.persist(order));
                    ids.add(order.id());
                }
                assertThat(ids).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).isPositive());
                assertThat(HibernateTesting.ids(db.dataSource(), "hpo_mismatched_order")).hasSize(60);
                assertThat(messages(Level.INFO)).anySatisfy(m -> assertThat(m).containsIgnoringCase(SEQUENCE)
                        .contains("takes blocks of 10"));
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void logWarnsAtStartUpAndStillRefusesValuesThatWouldCollide(TestDatabase db) {
        withSequenceSteppingBy10(db, () -> {
            try (SessionFactory sessionFactory = sessionFactory(db, "log")) {
                assertThat(messages(Level.WARNING)).anySatisfy(m -> assertThat(m).containsIgnoringCase(SEQUENCE)
                        .contains("steps by 10, not by allocationSize 50"));
                assertThatThrownBy(() -> HibernateTesting.inTransaction(sessionFactory,
                        session -> session.persist(new MismatchedOrder())))
                        .satisfies(e -> assertThat(HibernateTesting.messages(e))
                                .contains("not a multiple of allocationSize 50"));
                assertThat(HibernateTesting.ids(db.dataSource(), "hpo_mismatched_order")).isEmpty();
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void noneSkipsTheStartUpCheckAndTheFirstUseCheckStillRefuses(TestDatabase db) {
        withSequenceSteppingBy10(db, () -> {
            try (SessionFactory sessionFactory = sessionFactory(db, "none")) {
                assertThat(messages(Level.WARNING)).noneSatisfy(m -> assertThat(m).containsIgnoringCase(SEQUENCE));
                assertThatThrownBy(() -> HibernateTesting.inTransaction(sessionFactory,
                        session -> session.persist(new MismatchedOrder())))
                        .satisfies(e -> assertThat(HibernateTesting.messages(e))
                                .contains("not a multiple of allocationSize 50"));
            }
        });
    }

    @Test
    void aDialectWhoseSequencesCannotServePooledBlocksIsRefusedAtStartUp() {
        TestDatabase db = TestDatabase.H2;
        Map<String, Object> settings = new HashMap<>(settings(null));
        settings.put(AvailableSettings.DIALECT, NoPooledSequencesH2Dialect.class.getName());
        settings.put(AvailableSettings.HBM2DDL_AUTO, "create-drop");
        try {
            assertThatThrownBy(() -> HibernateTesting.sessionFactory(db.dataSource(), "hpo_", "unused", settings,
                    LegacyOrder.class).close())
                    .satisfies(e -> assertThat(HibernateTesting.messages(e))
                            .contains("LegacyOrder").contains("NoPooledSequencesH2Dialect")
                            .contains("do not hand out pooled blocks").contains("@SeqgenGenerator"));
        } finally {
            db.dropTable("hpo_legacy_order");
            db.execute("DROP SEQUENCE IF EXISTS hpo_legacy_order_seq");
        }
    }

    private void withSequenceSteppingBy10(TestDatabase db, Runnable test) {
        db.dropTable("hpo_mismatched_order");
        db.execute("DROP SEQUENCE IF EXISTS " + SEQUENCE);
        db.execute("CREATE SEQUENCE " + SEQUENCE + " START WITH 1 INCREMENT BY 10");
        db.execute("CREATE TABLE hpo_mismatched_order (id BIGINT NOT NULL PRIMARY KEY)");
        try {
            test.run();
        } finally {
            db.dropTable("hpo_mismatched_order");
            db.execute("DROP SEQUENCE IF EXISTS " + SEQUENCE);
        }
    }

    private static SessionFactory sessionFactory(TestDatabase db, String mismatchStrategy) {
        return HibernateTesting.sessionFactory(db.dataSource(), "hpo_", "unused", settings(mismatchStrategy),
                MismatchedOrder.class);
    }

    /** seqgen's optimizer on an existing schema (nothing recreated, so the sequence read at boot is the one used). */
    private static Map<String, Object> settings(String mismatchStrategy) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(AvailableSettings.PREFERRED_POOLED_OPTIMIZER, SeqgenPooledOptimizer.class.getName());
        settings.put(AvailableSettings.HBM2DDL_AUTO, "none");
        if (mismatchStrategy != null) {
            settings.put(AvailableSettings.SEQUENCE_INCREMENT_SIZE_MISMATCH_STRATEGY, mismatchStrategy);
        }
        return settings;
    }

    private List<String> messages(Level level) {
        return logs.messages(level);
    }
}
