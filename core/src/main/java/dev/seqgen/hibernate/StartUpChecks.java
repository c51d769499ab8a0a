package dev.seqgen.hibernate;

import dev.seqgen.hibernate.GeneratorSettings.Registration;
import dev.seqgen.jdbc.ApplicationTables;
import dev.seqgen.spi.SequenceStore;
import org.hibernate.MappingException;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.relational.QualifiedName;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.config.spi.ConfigurationService;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.generator.Generator;
import org.hibernate.id.SequenceMismatchStrategy;
import org.hibernate.id.enhanced.DatabaseStructure;
import org.hibernate.id.enhanced.SequenceStyleGenerator;
import org.hibernate.tool.schema.Action;
import org.hibernate.tool.schema.extract.spi.SequenceInformation;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What seqgen checks at start-up beyond creating the rows, and how it reports it: columns that refuse the values
 * seqgen assigns (all of them in one report), a sequence table that cannot be read, and the checks Hibernate makes
 * for its own pooled optimizers and skips for {@link SeqgenPooledOptimizer} ({@link #checkPooledOptimizers}). Each
 * check runs once per start, never per value; they live together because each is a start-up check with its report,
 * and none is entered again once the first value is out.
 */
final class StartUpChecks {

    private static final System.Logger LOG = System.getLogger(StartUpChecks.class.getName());
    /** The pooled optimizer's checks log under its own name, where its users look. */
    private static final System.Logger POOLED_LOG = System.getLogger(SeqgenPooledOptimizer.class.getName());

    private StartUpChecks() {
    }

    /**
     * Fails the start-up when columns seqgen assigns refuse assigned values (identity columns declared
     * {@code GENERATED ALWAYS AS IDENTITY}, computed columns), naming every one of them at once, each with its
     * entity, table, column, database and the change, rather than letting every insert fail or a restart per
     * column find the next. The store layer reads the columns ({@link ApplicationTables#refusals}) on a connection
     * borrowed from Hibernate, here at start-up only.
     */
    static void requireAssignableColumns(@Nullable ConnectionProvider provider, List<Registration> registrations) {
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
     * What the JDBC store's table looks like when a row could not be created: null when the table can be read (the
     * creation's own error says it all), otherwise what reading it said, with what creates a missing table. The
     * reading's error is added to the creation's as suppressed, so both reach the log.
     */
    static @Nullable String unreadableTable(SequenceStore store, RuntimeException creation) {
        SequenceStore.SqlTable table = store.sqlTable().orElse(null);
        if (table == null) {
            return null;
        }
        try {
            store.nextValue("seqgen-table-probe");
            return null;
        } catch (RuntimeException unreadable) {
            creation.addSuppressed(unreadable);
            String script = "dev/seqgen/schema/" + table.platform() + ".sql";
            return "seqgen's sequence table " + table.name() + " could not be read in the " + store.name()
                    + " database: " + unreadable.getMessage() + " (creating the row failed with: "
                    + creation.getMessage() + "). If the table does not exist, create it: with Spring Boot,"
                    + " seqgen.jdbc.initialize-schema=always runs the script " + script + " of seqgen-spring-boot-"
                    + "starter at start-up (or copy it into your Flyway or Liquibase migrations)"
                    + (table.platform().equals("spanner") ? " (Hibernate's Spanner dialects cannot create it, so it"
                            + " is not part of Hibernate's schema there)"
                            : "; or let Hibernate create it, since it is part of Hibernate's schema"
                            + " (hibernate.hbm2ddl.auto, spring.jpa.hibernate.ddl-auto)");
        }
    }

    /**
     * The start-up checks Hibernate makes for its own pooled optimizers and skips for a custom one, made for every
     * {@link SeqgenPooledOptimizer} of a session factory once it is built (by {@link SeqgenIntegrator}, before the
     * first session); throws on the first refusal:
     * <ul>
     *   <li>{@code hibernate.id.sequence.increment_size_mismatch_strategy} against the database sequence's
     *       increment, read from the sequence information Hibernate extracted at boot (no I/O of its own), skipped
     *       where the schema is recreated, as Hibernate skips it;</li>
     *   <li>a dialect whose sequences cannot serve pooled blocks, where Hibernate would have moved {@code pooled}
     *       to a table but leaves the custom optimizer on the database sequence: refused.</li>
     * </ul>
     */
    static void checkPooledOptimizers(SessionFactoryImplementor factory) {
        factory.getMappingMetamodel().forEachEntityDescriptor(persister -> {
            Generator generator = persister.getGenerator();
            if (generator instanceof SequenceStyleGenerator sequenceStyle
                    && sequenceStyle.getOptimizer() instanceof SeqgenPooledOptimizer optimizer) {
                checkPooledOptimizer(factory, persister.getEntityName(), sequenceStyle.getDatabaseStructure(),
                        optimizer);
            }
        });
    }

    private static void checkPooledOptimizer(SessionFactoryImplementor factory, String entity,
            DatabaseStructure structure, SeqgenPooledOptimizer optimizer) {
        JdbcEnvironment jdbc = factory.getServiceRegistry().requireService(JdbcEnvironment.class);
        QualifiedName name = structure.getPhysicalName();
        if (structure.isPhysicalSequence() && !jdbc.getDialect().getSequenceSupport().supportsPooledSequences()) {
            throw new SeqgenMappingException("entity " + entity + ", sequence " + name, "SeqgenPooledOptimizer"
                    + " cannot serve it on " + jdbc.getDialect().getClass().getSimpleName() + ", whose sequences do"
                    + " not hand out pooled blocks (Hibernate moves its own pooled optimizer to a table there)",
                    "Map the id with @SeqgenGenerator instead, or remove "
                    + AvailableSettings.PREFERRED_POOLED_OPTIMIZER,
                    null);
        }
        if (!structure.isPhysicalSequence()) {
            return; // a table Hibernate updates by the increment itself: no database sequence to disagree with
        }
        Map<String, Object> settings = factory.getServiceRegistry().requireService(ConfigurationService.class)
                .getSettings();
        SequenceMismatchStrategy strategy = SequenceMismatchStrategy.interpret(
                settings.get(AvailableSettings.SEQUENCE_INCREMENT_SIZE_MISMATCH_STRATEGY));
        if (strategy == SequenceMismatchStrategy.NONE || schemaRecreated(settings)) {
            return;
        }
        Number databaseIncrement = databaseIncrement(jdbc, name);
        int allocationSize = optimizer.getIncrementSize();
        if (databaseIncrement == null) {
            return;
        }
        if (databaseIncrement.longValue() == allocationSize) {
            optimizer.incrementVerified();
            return;
        }
        switch (strategy) {
            case FIX -> {
                POOLED_LOG.log(Level.INFO, "sequence {0} steps by {1}, not by allocationSize {2}: entity {3}"
                        + " takes blocks of {1} (increment_size_mismatch_strategy=fix)",
                        name, databaseIncrement, allocationSize, entity);
                optimizer.adoptDatabaseIncrement(Math.toIntExact(databaseIncrement.longValue()));
            }
            case LOG -> POOLED_LOG.log(Level.WARNING, "sequence {0} steps by {1}, not by allocationSize {2}"
                    + " of entity {3}; values that are not {2} apart will fail its inserts"
                    + " (increment_size_mismatch_strategy=log)", name, databaseIncrement, allocationSize, entity);
            default -> throw new SeqgenMappingException("entity " + entity + ", sequence " + name, "the database"
                    + " sequence steps by " + databaseIncrement + " but the id's allocationSize is " + allocationSize,
                    "Make them equal, or set " + AvailableSettings.SEQUENCE_INCREMENT_SIZE_MISMATCH_STRATEGY
                    + "=fix to take the sequence's increment", null);
        }
    }

    /** The increment Hibernate read for the sequence at boot, or null when it was not read or not found. */
    private static @Nullable Number databaseIncrement(JdbcEnvironment jdbc, QualifiedName name) {
        String sequence = name.getObjectName().getText();
        for (SequenceInformation information : jdbc.getExtractedDatabaseMetaData().getSequenceInformationList()) {
            QualifiedName found = information.getSequenceName();
            if (found.getObjectName().getText().equalsIgnoreCase(sequence)
                    && sameOrDefault(name.getSchemaName(), found.getSchemaName(), jdbc.getCurrentSchema())
                    && sameOrDefault(name.getCatalogName(), found.getCatalogName(), jdbc.getCurrentCatalog())) {
                return information.getIncrementValue();
            }
        }
        return null;
    }

    private static boolean sameOrDefault(@Nullable Identifier mapped,
            @Nullable Identifier found, @Nullable Identifier current) {
        Identifier expected = mapped != null ? mapped : current;
        return found == null || expected == null || found.getText().equalsIgnoreCase(expected.getText());
    }

    /** Whether Hibernate drops and creates the schema at start-up, so the sequence read at boot is replaced. */
    private static boolean schemaRecreated(Map<String, Object> settings) {
        Object jpa = settings.get(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION);
        Action action = jpa != null ? Action.interpretJpaSetting(jpa)
                : Action.interpretHbm2ddlSetting(settings.get(AvailableSettings.HBM2DDL_AUTO));
        return action == Action.CREATE || action == Action.CREATE_DROP;
    }
}
