package dev.seqgen.hibernate;

import dev.seqgen.CounterKind;
import dev.seqgen.KeyOrder;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spi.SequenceStore;

import java.lang.annotation.Annotation;
import java.sql.Connection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * A generator's settings, resolved once while Hibernate reads the mappings, from one place for every way a user
 * gives them: the annotation's attributes over the registry's configuration (the Spring Boot properties, or the
 * plain Hibernate keys of {@link PlainSettings}), and the rules a sequence on a Hibernate attribute must meet
 * (its type's range, a store that can serve SYNC in the session's transaction). No I/O.
 */
final class GeneratorSettings {

    private static final System.Logger LOG = System.getLogger(GeneratorSettings.class.getName());

    private final RegistrySource source;
    /**
     * The generators whose overridden or kept attributes were logged: Hibernate may configure a generator more
     * than once, and the line is for a reader, once per start.
     */
    private final Set<String> toldOnce = ConcurrentHashMap.newKeySet();

    GeneratorSettings(RegistrySource source) {
        this.source = source;
    }

    /**
     * The settings of a generator's sequence: the registry's (given, or seqgen's own from the plain settings)
     * merged with the annotation, capped at the attribute type's range; SYNC only where the store takes the
     * session's connection. No I/O: Hibernate may be reading the mappings without a database.
     *
     * @throws SeqgenMappingException naming {@code where} if SYNC is asked of a store that cannot serve it
     * @throws SequenceConfigurationException if a value breaks a rule
     */
    SequenceSettings resolve(Annotation annotation, String name, boolean intType,
            String where) {
        SequenceRegistry given = source.givenRegistry();
        SequenceSettings configured;
        SequenceSettings defaults;
        if (given != null) {
            configured = given.settingsFor(name);
            defaults = given.defaults();
        } else {
            PlainSettings plain = source.plainSettings();
            defaults = plain.defaults;
            configured = plain.perSequence.getOrDefault(name, defaults);
        }
        SequenceSettings settings;
        try {
            settings = AnnotatedSettings.resolve(annotation, configured, defaults,
                    intType ? SequenceSettings.INT_MAX_VALUE : SequenceSettings.LARGEST_MAX_VALUE);
            String overridden = AnnotatedSettings.overridden(annotation, configured, defaults);
            // Operations may retune a sequence without a rebuild; the code's choice is then not what runs,
            // which whoever reads the annotation should be able to see. And a value configured for the sequence
            // that equals the default leaves the annotation's in force, which nothing else would show. The
            // registry and the plain settings hand out the defaults themselves for a name with no configuration.
            String kept = configured == defaults ? ""
                    : AnnotatedSettings.keptOverConfiguredDefaults(annotation, configured, defaults);
            String told = overridden.isEmpty() ? kept : kept.isEmpty() ? overridden : overridden + "; " + kept;
            if (!told.isEmpty() && toldOnce.add(name + " (" + where + ")")) {
                LOG.log(System.Logger.Level.INFO, "seqgen: sequence '" + name + "' (" + where + "): " + told);
            }
        } catch (SequenceConfigurationException e) {
            if (e.setting().equals("kind")) {
                throw nativeKindCannotServeSync(where, name, e);
            }
            throw e;
        }
        try {
            settings.validateFor(name);
        } catch (SequenceConfigurationException e) {
            throw new SeqgenMappingException(where, e.getMessage(), "Set key-order bit-reversed for sequence '" + name
                    + "' (keyOrder on @SeqgenGenerator, or its key-order property), or remove its skip-range", e);
        }
        if (intType && settings.keyOrder() != KeyOrder.SEQUENTIAL) {
            throw new SeqgenMappingException(where, "key-order " + settings.keyOrder().externalName() + " spreads"
                    + " the values over the whole positive long range, which an int attribute cannot hold",
                    "Declare the attribute long or Long, or keep key-order sequential for sequence '" + name + "'",
                    null);
        }
        if (given != null && settings.strategy() == Strategy.SYNC) {
            // The store that will serve the sequence, by its kind: SYNC needs one that takes the session's
            // connection, the JDBC table store in the entities' database.
            SequenceStore serving = given.storeOf(name, settings);
            if (serving.kind() == CounterKind.NATIVE_SEQUENCE) {
                throw nativeKindCannotServeSync(where, name, null);
            }
            if (!Connection.class.equals(serving.transactionType())) {
                throw new SeqgenMappingException(where, "the SYNC strategy increments the row on the session's"
                        + " JDBC connection, so it needs the JDBC store in the entities' database; the registry"
                        + " uses the " + serving.name() + " store", "Keep the sequence's row in the entities'"
                        + " database with the JDBC store, or give the sequence another strategy (with Spring Boot:"
                        + " seqgen.sequences." + name + ".strategy=async, unique and ordered but not gapless)", null);
            }
        }
        return settings;
    }

    private static SeqgenMappingException nativeKindCannotServeSync(String where, String name,
            @Nullable SequenceConfigurationException cause) {
        return new SeqgenMappingException(where, "the SYNC strategy takes gapless values from a row of seqgen's"
                + " sequence table in the session's transaction, and the sequence would be served by the"
                + " native-sequence store (a database sequence), whose increments cannot be rolled back",
                "Count this sequence in the table: seqgen.sequences." + name + ".kind=table (a Spring Boot property,"
                + " or a Hibernate setting when seqgen builds its registry). Spring Boot and plain Hibernate then"
                + " give the registry a table store beside the native-sequence store, so ids on database sequences"
                + " and gapless numbers share one application; a registry built by hand needs one:"
                + " SequenceRegistry.Builder.store(a JdbcSequenceStore)", cause);
    }
}
