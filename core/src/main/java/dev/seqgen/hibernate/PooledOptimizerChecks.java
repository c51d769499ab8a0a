package dev.seqgen.hibernate;

import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.relational.QualifiedName;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.config.spi.ConfigurationService;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.id.SequenceMismatchStrategy;
import org.hibernate.id.enhanced.DatabaseStructure;
import org.hibernate.tool.schema.Action;
import org.hibernate.tool.schema.extract.spi.SequenceInformation;
import java.lang.System.Logger.Level;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The start-up checks Hibernate skips for a custom pooled optimizer: the sequence's increment (read at boot, no I/O)
 * against {@code increment_size_mismatch_strategy}, and a dialect whose sequences cannot serve pooled blocks.
 */
final class PooledOptimizerChecks {

    private static final System.Logger POOLED_LOG = System.getLogger(SeqgenPooledOptimizer.class.getName());

    private PooledOptimizerChecks() {
    }

    /** Checks one entity's optimizer; throws {@link SeqgenMappingException} naming entity and sequence. */
    static void check(SessionFactoryImplementor factory, String entity,
            DatabaseStructure structure, SeqgenPooledOptimizer optimizer) {
        JdbcEnvironment jdbc = factory.getServiceRegistry().requireService(JdbcEnvironment.class);
        QualifiedName name = structure.getPhysicalName();
        if (!structure.isPhysicalSequence()) {
            return; // a table Hibernate updates by the increment itself: no database sequence to disagree with
        }
        if (!jdbc.getDialect().getSequenceSupport().supportsPooledSequences()) {
            throw new SeqgenMappingException("entity " + entity + ", sequence " + name, "SeqgenPooledOptimizer"
                    + " cannot serve it on " + jdbc.getDialect().getClass().getSimpleName() + ", whose sequences do"
                    + " not hand out pooled blocks (Hibernate moves its own pooled optimizer to a table there)",
                    "Map the id with @SeqgenGenerator instead, or remove "
                            + AvailableSettings.PREFERRED_POOLED_OPTIMIZER, null);
        }
        Map<String, Object> settings = factory.getServiceRegistry().requireService(ConfigurationService.class)
                .getSettings();
        SequenceMismatchStrategy strategy = SequenceMismatchStrategy.interpret(
                settings.get(AvailableSettings.SEQUENCE_INCREMENT_SIZE_MISMATCH_STRATEGY));
        Number databaseIncrement = databaseIncrement(jdbc, name);
        if (strategy == SequenceMismatchStrategy.NONE || schemaRecreated(settings) || databaseIncrement == null) {
            return;
        }
        int allocationSize = optimizer.getIncrementSize();
        if (databaseIncrement.longValue() == allocationSize) {
            optimizer.adoptDatabaseIncrement(allocationSize); // the same size, now verified
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
        return jdbc.getExtractedDatabaseMetaData().getSequenceInformationList().stream().filter(information -> {
            QualifiedName found = information.getSequenceName();
            return found.getObjectName().getText().equalsIgnoreCase(sequence)
                    && sameOrDefault(name.getSchemaName(), found.getSchemaName(), jdbc.getCurrentSchema())
                    && sameOrDefault(name.getCatalogName(), found.getCatalogName(), jdbc.getCurrentCatalog());
        }).findFirst().map(SequenceInformation::getIncrementValue).orElse(null);
    }

    private static boolean sameOrDefault(@Nullable Identifier mapped,
            @Nullable Identifier found, @Nullable Identifier current) {
        Identifier expected = mapped != null ? mapped : current;
        return found == null || expected == null || found.getText().equalsIgnoreCase(expected.getText());
    }

    /** Whether Hibernate recreates the schema at start-up, replacing the sequence read at boot. */
    private static boolean schemaRecreated(Map<String, Object> settings) {
        Object jpa = settings.get(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION);
        Action action = jpa != null ? Action.interpretJpaSetting(jpa)
                : Action.interpretHbm2ddlSetting(settings.get(AvailableSettings.HBM2DDL_AUTO));
        return action == Action.CREATE || action == Action.CREATE_DROP;
    }
}
