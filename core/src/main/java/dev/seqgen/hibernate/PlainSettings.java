package dev.seqgen.hibernate;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import dev.seqgen.jdbc.JdbcSequenceStore;

import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The {@code seqgen.*} Hibernate settings seqgen reads when it builds its own registry (see
 * {@link SeqgenHibernate}). Values may be strings, as in {@code hibernate.properties}, or objects of the
 * setting's type. Every bad value or unknown key fails with the full setting name and what is allowed.
 */
final class PlainSettings {

    final String table;
    /** The native-sequence store's prefix, or null for its default. */
    final @Nullable String sequencePrefix;
    final boolean createTable;
    final SequenceSettings defaults;
    /** Per sequence name, sorted so that errors and registries come out the same on every start. */
    final Map<String, SequenceSettings> perSequence;

    private PlainSettings(String table, @Nullable String sequencePrefix, boolean createTable, SequenceSettings defaults,
            Map<String, SequenceSettings> perSequence) {
        this.table = table;
        this.sequencePrefix = sequencePrefix;
        this.createTable = createTable;
        this.defaults = defaults;
        this.perSequence = perSequence;
    }

    static PlainSettings from(Map<String, Object> settings) {
        Object table = settings.get(SeqgenHibernate.TABLE);
        boolean createTable = bool(SeqgenHibernate.SCHEMA_CREATE, settings.get(SeqgenHibernate.SCHEMA_CREATE), true);

        SequenceSettings.Builder defaults = SequenceSettings.builder();
        Map<String, Map<String, Object>> sequences = new TreeMap<>();
        for (Map.Entry<String, Object> setting : new TreeMap<>(settings).entrySet()) {
            String key = setting.getKey();
            if (key.startsWith(SeqgenHibernate.DEFAULTS_PREFIX)) {
                String rest = key.substring(SeqgenHibernate.DEFAULTS_PREFIX.length());
                apply(defaults, SeqgenHibernate.DEFAULTS_PREFIX, rest, setting.getValue());
            } else if (key.startsWith(SeqgenHibernate.SEQUENCES_PREFIX)) {
                String rest = key.substring(SeqgenHibernate.SEQUENCES_PREFIX.length());
                int dot = rest.indexOf('.');
                if (dot <= 0) {
                    throw new SequenceConfigurationException(key, setting.getValue(),
                            SeqgenHibernate.SEQUENCES_PREFIX + "<name>.<key> with a key of: " + Setting.keys());
                }
                sequences.computeIfAbsent(rest.substring(0, dot), name -> new TreeMap<>())
                        .put(rest.substring(dot + 1), setting.getValue());
            }
        }
        SequenceSettings builtDefaults = build(defaults, SeqgenHibernate.DEFAULTS_PREFIX);

        Map<String, SequenceSettings> perSequence = new TreeMap<>();
        for (Map.Entry<String, Map<String, Object>> sequence : sequences.entrySet()) {
            String prefix = SeqgenHibernate.SEQUENCES_PREFIX + sequence.getKey() + ".";
            SequenceSettings.Builder builder = builtDefaults.toBuilder();
            sequence.getValue().forEach((key, value) -> apply(builder, prefix, key, value));
            perSequence.put(sequence.getKey(), build(builder, prefix));
        }
        Object sequencePrefix = settings.get(SeqgenHibernate.SEQUENCE_PREFIX);
        return new PlainSettings(table == null ? JdbcSequenceStore.DEFAULT_TABLE : table.toString().trim(),
                sequencePrefix == null ? null : sequencePrefix.toString().trim(), createTable, builtDefaults,
                perSequence);
    }

    private static void apply(SequenceSettings.Builder builder, String prefix, String key, Object value) {
        try {
            Setting.find(key).orElseThrow(() -> new SequenceConfigurationException(prefix + key, value,
                    "a key of: " + Setting.keys())).apply(builder, value);
        } catch (SequenceConfigurationException e) {
            throw e.setting().startsWith(prefix) ? e : prefixed(prefix, e);
        }
    }

    private static SequenceSettings build(SequenceSettings.Builder builder, String prefix) {
        try {
            return builder.build();
        } catch (SequenceConfigurationException e) {
            throw prefixed(prefix, e);
        }
    }

    private static SequenceConfigurationException prefixed(String prefix, SequenceConfigurationException e) {
        SequenceConfigurationException named = new SequenceConfigurationException(prefix + e.setting(), e.value(),
                e.allowed());
        named.initCause(e);
        return named;
    }

    private static boolean bool(String setting, @Nullable Object value, boolean absent) {
        if (value == null) {
            return absent;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        String text = value.toString().trim();
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw new SequenceConfigurationException(setting, value, "true or false");
    }
}
