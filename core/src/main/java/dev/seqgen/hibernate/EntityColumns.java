package dev.seqgen.hibernate;

import dev.seqgen.KeyOrder;
import dev.seqgen.SequenceSettings;
import dev.seqgen.hibernate.ColumnRefusesAssignedValuesException.RefusingColumn;
import dev.seqgen.hibernate.GeneratorSettings.Registration;
import dev.seqgen.jdbc.ApplicationTables;
import dev.seqgen.jdbc.ApplicationTables.Column;
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
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** Checks and adopts the entity columns seqgen's sequences fill. See docs/design.md#adoption. */
final class EntityColumns {

    private static final System.Logger LOG = System.getLogger(SeqgenIdGenerator.class.getName()); // the one docs name

    private EntityColumns() {
    }

    /** Fails the start-up naming every column seqgen assigns that refuses assigned values. */
    static void requireAssignable(@Nullable ConnectionProvider provider, List<Registration> registrations) {
        Map<Column, Registration> columns = registrations.stream().filter(r -> r.table() != null && r.column() != null)
                .collect(Collectors.toMap(r -> new Column(r.table(), r.column()), r -> r, (first, later) -> first,
                        LinkedHashMap::new));
        if (provider == null || columns.isEmpty()) {
            return;
        }
        Connection connection;
        try {
            connection = provider.getConnection();
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.DEBUG, "seqgen: no connection to check the generated columns: " + e.getMessage());
            return;
        }
        Map<Column, ApplicationTables.Refusal> refusals;
        try {
            refusals = ApplicationTables.refusals(connection, columns.keySet());
        } finally {
            try {
                provider.closeConnection(connection);
            } catch (SQLException ignored) {
                // the pool's business
            }
        }
        List<RefusingColumn> refusing = new ArrayList<>();
        refusals.forEach((column, refusal) -> refusing.add(new RefusingColumn(columns.get(column).name(),
                columns.get(column).where(), column.table(), column.column(), refusal.database(), refusal.reason(),
                refusal.fix())));
        if (!refusing.isEmpty()) {
            ColumnRefusesAssignedValuesException refused = new ColumnRefusesAssignedValuesException(refusing);
            throw new MappingException(refused.getMessage(), refused);
        }
    }

    /** At a sequential sequence's first value: moves its row forward above the highest value of its tables. */
    static void aboveExistingRows(List<Registration> group, SequenceStore store, String platform) {
        if (group.get(0).settings().keyOrder() != KeyOrder.SEQUENTIAL) {
            return; // adopted when start() created the row, once
        }
        String name = group.get(0).name();
        Highest existing = highest(group, store, platform, true);
        long highest = existing.counter();
        if (highest <= 0 || highest == Long.MAX_VALUE) {
            return;
        }
        try { // the row exists: start() created it
            if (store.advance(name, highest + 1)) {
                LOG.log(Level.INFO, "seqgen: moved sequence '" + name + "' forward to " + (highest + 1)
                        + ", above the highest value already in table " + existing.table() + " (" + highest + ")");
            }
        } catch (UnsupportedOperationException e) {
            LOG.log(Level.WARNING, "seqgen: the " + store.name() + " store cannot move the row of"
                    + " sequence '" + name + "' forward; table " + existing.table() + " holds values up to " + highest);
        }
    }

    /** {@return a bit-reversed sequence's settings, initial value raised above the counters of existing keys} */
    static SequenceSettings aboveExistingKeys(List<Registration> group, SequenceStore store, String platform) {
        String name = group.get(0).name();
        SequenceSettings settings = group.get(0).settings();
        try {
            if (store.nextValue(name).isPresent()) {
                return settings;
            }
        } catch (SequenceStoreException e) {
            // no table yet: no row either; createSequence says what is wrong
        }
        Highest existing = highest(group, store, platform, false);
        long highest = existing.counter();
        if (highest <= 0) {
            return settings;
        }
        if (highest >= settings.maxValue()) {
            throw new SeqgenMappingException(group.get(0).where(), "table " + existing.table() + " already holds a key"
                    + " whose counter is " + highest + ", at the maximum value of sequence '" + name + "' ("
                    + settings.maxValue() + "); with key-order bit-reversed every counter up to it may be taken",
                    "Set seqgen.sequences." + name + ".skip-range to a range holding the table's existing keys, or"
                    + " give the entity a new table", null);
        }
        LOG.log(highest >= 1L << 62 ? Level.WARNING : Level.INFO, "seqgen: sequence '"
                + name + "' starts at counter " + (highest + 1) + ", above the counters of the keys already in"
                + " table " + existing.table() + (highest >= 1L << 62 ? "; that leaves less than half of the counters:"
                + " if those keys came from another program, set seqgen.sequences." + name + ".skip-range to a"
                + " range holding them instead" : ""));
        return settings.toBuilder().initialValue(Math.max(settings.initialValue(), highest + 1)).build();
    }

    /** Warns, once per sequence, that its store is in another database and cannot read its tables. */
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

    private record Highest(long counter, @Nullable String table) {
    }

    /** The highest counter the group's tables hold; an unreadable table fails at the first value, else is empty. */
    private static Highest highest(List<Registration> group, SequenceStore store, String platform,
            boolean atFirstValue) {
        Highest highest = new Highest(0, null);
        if (!store.readsApplicationTables(platform)) {
            return highest;
        }
        String name = group.get(0).name();
        Set<String> read = new HashSet<>(); // Hibernate may configure an attribute's generator more than once
        for (Registration registration : group) {
            if (registration.table() == null || !read.add(registration.table() + "." + registration.column())) {
                continue;
            }
            try {
                long counter = store.highestCounter(registration.table(), registration.column(),
                        registration.settings()).orElse(0);
                if (counter > highest.counter()) {
                    highest = new Highest(counter, registration.table());
                }
            } catch (SequenceStoreException e) {
                if (atFirstValue) {
                    throw new SeqgenMappingException(registration.where(), "could not read table "
                            + registration.table() + " to start sequence '" + name + "' above the values it already"
                            + " holds: " + e.getMessage(), "Let the application's database user read the table"
                            + " (SELECT), or create the table before the first value is taken", e);
                }
                LOG.log(Level.WARNING, "seqgen: could not read table " + registration.table() + " for sequence '"
                        + name + "' at start-up (counted as empty: it may not exist yet): " + e.getMessage());
            }
        }
        return highest;
    }
}
