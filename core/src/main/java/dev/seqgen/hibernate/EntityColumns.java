package dev.seqgen.hibernate;

import dev.seqgen.KeyOrder;
import dev.seqgen.SequenceSettings;
import dev.seqgen.hibernate.GeneratorSettings.Registration;
import dev.seqgen.jdbc.ApplicationTables;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;
import org.hibernate.MappingException;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The entity columns seqgen's sequences fill (an id, a number), as the application's tables hold them: that they
 * take the values seqgen assigns ({@link #requireAssignable}, at start-up, every refusing column in one report), and
 * that each sequence starts above the values they already hold, once (adoption). A sequential sequence adopts at its
 * first value ({@link #aboveExistingRows}, its row moved forward), since rows may arrive after start-up; a
 * bit-reversed one where its row is created ({@link #aboveExistingKeys}), since its keys say nothing of a row's
 * position later. Both jobs are one class because they are the Hibernate side of one thing, the reads of the
 * application's own tables that the store layer makes ({@link ApplicationTables}): the column check on a connection
 * borrowed from Hibernate, every read of rows by the store, on its own connection, and only of tables the store can
 * reach ({@link #warnIfTablesElsewhere}).
 */
final class EntityColumns {

    /**
     * The adoption and column checks log under the generator's public name, the logger docs/hibernate.md names (as
     * AbstractSequence logs under Sequence and PooledOptimizerChecks under SeqgenPooledOptimizer): a class's own
     * name changes with the code's structure, an operator's logging configuration should not have to.
     */
    private static final System.Logger LOG = System.getLogger(SeqgenIdGenerator.class.getName());

    private EntityColumns() {
    }

    /**
     * Fails the start-up when columns seqgen assigns refuse assigned values (identity columns declared
     * {@code GENERATED ALWAYS AS IDENTITY}, computed columns), naming every one of them at once, each with its
     * entity, table, column, database and the change, rather than letting every insert fail or a restart per
     * column find the next. The store layer reads the columns ({@link ApplicationTables#refusals}) on a connection
     * borrowed from Hibernate, here at start-up only.
     */
    static void requireAssignable(@Nullable ConnectionProvider provider, List<Registration> registrations) {
        if (provider == null) {
            return;
        }
        Map<ApplicationTables.Column, Registration> columns = new LinkedHashMap<>();
        for (Registration registration : registrations) {
            if (registration.table() != null && registration.column() != null) {
                columns.putIfAbsent(new ApplicationTables.Column(registration.table(), registration.column()),
                        registration);
            }
        }
        if (columns.isEmpty()) {
            return;
        }
        Connection connection;
        try {
            connection = provider.getConnection();
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.DEBUG, "seqgen: no connection to check the generated columns: " + e.getMessage());
            return;
        }
        Map<ApplicationTables.Column, ApplicationTables.Refusal> refusals;
        try {
            refusals = ApplicationTables.refusals(connection, columns.keySet());
        } finally {
            try {
                provider.closeConnection(connection);
            } catch (SQLException ignored) {
                // the pool's business
            }
        }
        List<ColumnRefusesAssignedValuesException.RefusingColumn> refusing = new ArrayList<>();
        refusals.forEach((column, refusal) -> {
            Registration registration = columns.get(column);
            refusing.add(new ColumnRefusesAssignedValuesException.RefusingColumn(registration.name(),
                    registration.where(), column.table(), column.column(), refusal.database(), refusal.reason(),
                    refusal.fix()));
        });
        if (!refusing.isEmpty()) {
            ColumnRefusesAssignedValuesException refused = new ColumnRefusesAssignedValuesException(refusing);
            throw new MappingException(refused.getMessage(), refused);
        }
    }

    /**
     * Puts the row of the group's sequence (created by {@link SeqgenRegistryService#start()}) above the highest id
     * of all its tables: a row below is moved forward by the store's guarded update, never backwards, so JVMs
     * starting at once agree. A table that cannot be read fails the first value, with the store's error as its
     * cause (see {@link #highest}); a store whose rows are elsewhere reads nothing.
     *
     * @param platform the entities' database ({@link RegistrySource#platform()})
     */
    static void aboveExistingRows(List<Registration> group, SequenceStore store, String platform) {
        String name = group.get(0).name();
        SequenceSettings settings = group.get(0).settings();
        if (settings.keyOrder() != KeyOrder.SEQUENTIAL) {
            return; // adopted when start() created the row, once
        }
        Highest existing = highest(group, store, platform, true);
        long highest = existing.counter();
        String highestTable = existing.table();
        if (highest <= 0 || highest == Long.MAX_VALUE) {
            return;
        }
        // The row exists: start() created it, before any first value. Rows are created there only.
        boolean moved;
        try {
            moved = store.advance(name, highest + 1);
        } catch (UnsupportedOperationException e) {
            LOG.log(Level.WARNING, "seqgen: the " + store.name() + " store cannot move the row of"
                    + " sequence '" + name + "' forward; table " + highestTable + " holds values up to " + highest);
            return;
        }
        if (moved) {
            LOG.log(Level.INFO, "seqgen: moved sequence '" + name + "' forward to " + (highest + 1)
                    + ", above the highest value already in table " + highestTable + " (" + highest + ")");
        }
    }

    /**
     * Adoption for a sequence whose keys are images of its counters ({@code key-order bit-reversed}). The maximum
     * key says nothing of the counters used (bit-reversed keys reach 2<sup>62</sup> at the first value), so:
     * with the sequence's row there, seqgen's own counter is the truth and nothing is read. Without it (the table
     * was filled by another program, by Spanner's own bit-reversed sequence, or the row was lost), every existing
     * key outside the {@code skip-range} is mapped back to its counter and the row starts above the highest of
     * them, so no new key can equal an existing one. That read goes over the keys once, when the session factory
     * starts and the sequence has no row yet, never again; keys inside the skip range are left to the range.
     *
     * @param platform the entities' database ({@link RegistrySource#platform()})
     * @return the settings to create the row with: the sequence's, its initial value raised above those counters
     */
    static SequenceSettings aboveExistingKeys(List<Registration> group, SequenceStore store, String platform) {
        String name = group.get(0).name();
        SequenceSettings settings = group.get(0).settings();
        OptionalLong row;
        try {
            row = store.nextValue(name);
        } catch (SequenceStoreException e) {
            row = OptionalLong.empty(); // no table yet: no row either; createSequence says what is wrong
        }
        if (row.isPresent()) {
            return settings;
        }
        Highest existing = highest(group, store, platform, false);
        long highest = existing.counter();
        String highestTable = existing.table();
        if (highest <= 0) {
            return settings;
        }
        if (highest >= settings.maxValue()) {
            throw new SeqgenMappingException(group.get(0).where(), "table " + highestTable + " already holds a key"
                    + " whose counter is " + highest + ", at the maximum value of sequence '" + name + "' ("
                    + settings.maxValue() + "); with key-order bit-reversed every counter up to it may be taken",
                    "Set seqgen.sequences." + name + ".skip-range to a range holding the table's existing keys, or"
                    + " give the entity a new table", null);
        }
        SequenceSettings above = settings.toBuilder().initialValue(Math.max(settings.initialValue(), highest + 1))
                .build();
        LOG.log(highest >= 1L << 62 ? Level.WARNING : Level.INFO, "seqgen: sequence '"
                + name + "' starts at counter " + (highest + 1) + ", above the counters of the keys already in"
                + " table " + highestTable + (highest >= 1L << 62 ? "; that leaves less than half of the counters:"
                + " if those keys came from another program, set seqgen.sequences." + name + ".skip-range to a"
                + " range holding them instead" : ""));
        return above;
    }

    /**
     * Warns, once per sequence when it starts, that its store cannot read its tables: the store keeps its rows in a
     * database of another kind than the entities' (a Cloud Spanner store beside entities on H2 or PostgreSQL), so
     * adoption reads nothing and the sequence starts at its row, whatever the tables hold. Not an error: the tables
     * may be empty, or the row placed above them by hand.
     *
     * @param platform the entities' database ({@link RegistrySource#platform()})
     */
    static void warnIfTablesElsewhere(List<Registration> group, SequenceStore store, String platform) {
        List<String> tables = group.stream().map(Registration::table).filter(Objects::nonNull).distinct().toList();
        if (tables.isEmpty() || store.readsApplicationTables(platform)) {
            return;
        }
        String name = group.get(0).name();
        LOG.log(Level.WARNING, "seqgen: sequence '" + name + "' cannot start above the values its table(s) "
                + String.join(", ", tables) + " already hold: they are in the application's " + platform
                + " database, and the sequence's row is in the " + store.name() + " store (" + store + "), which"
                + " cannot read them. The sequence starts at its row's next value (a new row at initial-value "
                + group.get(0).settings().initialValue() + "). If the tables hold values, set seqgen.sequences."
                + name + ".initial-value above the highest before the row is created (or move an existing row's"
                + " next_value above it), or keep seqgen's rows in the application's database (the JDBC store)");
    }

    /** The highest counter the tables of a group hold, and the table holding it (null if all are empty). */
    private record Highest(long counter, @Nullable String table) {
    }

    /**
     * Reads, through the store, the highest counter the group's tables hold. The store reads on its own connection,
     * never in the caller's transaction: on Cloud Spanner that read would otherwise begin the caller's read-write
     * transaction and widen what it locks and what can abort it. A store that cannot reach the tables
     * ({@link SequenceStore#readsApplicationTables}) is not asked: they count as empty, as
     * {@link #warnIfTablesElsewhere} said when the sequence started.
     *
     * <p>A table the store cannot read: at the first value ({@code atFirstValue}) the schema is in place (hbm2ddl,
     * Flyway and {@code data.sql} have run), so the error is the caller's, with its cause: taking it as an empty
     * table would start the sequence at its initial value over rows that may hold it. At start-up (a bit-reversed
     * sequence's row is made there) the table may not exist yet, since hbm2ddl creates it later; it then counts as
     * empty, with a warning that names the table and what the store said.
     */
    private static Highest highest(List<Registration> group, SequenceStore store, String platform,
            boolean atFirstValue) {
        if (!store.readsApplicationTables(platform)) {
            return new Highest(0, null);
        }
        String name = group.get(0).name();
        long highest = 0;
        @Nullable String highestTable = null;
        // One read per column: Hibernate may configure a generator of the same attribute more than once.
        Set<String> read = new HashSet<>();
        for (Registration registration : group) {
            if (registration.table() == null || !read.add(registration.table() + "." + registration.column())) {
                continue;
            }
            long counter;
            try {
                counter = store.highestCounter(registration.table(), registration.column(), registration.settings())
                        .orElse(0);
            } catch (SequenceStoreException e) {
                if (atFirstValue) {
                    throw new SeqgenMappingException(registration.where(), "could not read table "
                            + registration.table() + " to start sequence '" + name + "' above the values it already"
                            + " holds: " + e.getMessage(), "Let the application's database user read the table"
                            + " (SELECT), or create the table before the first value is taken", e);
                }
                LOG.log(Level.WARNING, "seqgen: could not read table " + registration.table()
                        + " for sequence '" + name + "' at start-up (counted as empty: it may not exist yet): "
                        + e.getMessage());
                counter = 0;
            }
            if (counter > highest) {
                highest = counter;
                highestTable = registration.table();
            }
        }
        return new Highest(highest, highestTable);
    }
}
