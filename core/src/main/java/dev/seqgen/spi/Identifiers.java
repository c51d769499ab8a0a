package dev.seqgen.spi;

import dev.seqgen.SequenceConfigurationException;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** The name rules: sequence names are bound as parameters; table names, written into SQL, are plain identifiers. */
public final class Identifiers {

    private static final Pattern SEQUENCE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.\\-]{0,63}");
    private static final Pattern TABLE_NAME =
            Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    /** The longest unqualified table name (PostgreSQL's limit). */
    private static final int MAX_TABLE_NAME = 63;
    private static final String KEPT_SUFFIX = "_kept";

    private Identifiers() {
    }

    /**
     * {@return the sequence name, checked}
     *
     * @throws SequenceConfigurationException unless 1 to 64 of {@code A-Z a-z 0-9 _ . -}, not starting with . or -
     */
    public static String requireSequenceName(@Nullable String name) {
        if (name == null || !SEQUENCE_NAME.matcher(name).matches()) {
            throw new SequenceConfigurationException("sequence name", name == null ? null : "'" + name + "'",
                    "1 to 64 characters of A-Z a-z 0-9 _ . -, starting with a letter, digit or underscore");
        }
        return name;
    }

    /** {@return the table of kept ranges: {@code table} + {@code _kept}, its name cut to stay within 63 characters} */
    public static String keptTableName(String table) {
        int dot = table.indexOf('.');
        String name = table.substring(dot + 1);
        int length = Math.min(name.length(), MAX_TABLE_NAME - KEPT_SUFFIX.length());
        return table.substring(0, dot + 1) + name.substring(0, length) + KEPT_SUFFIX;
    }

    /**
     * {@return the table name, optionally {@code schema.table}, checked}; {@code setting} is named in the error.
     *
     * @throws SequenceConfigurationException unless an unquoted identifier of at most 63 characters, no leading digit
     */
    public static String requireTableName(String setting, @Nullable String name) {
        if (name == null || !TABLE_NAME.matcher(name).matches()) {
            throw new SequenceConfigurationException(setting, name == null ? null : "'" + name + "'",
                    "an unquoted identifier of A-Z a-z 0-9 _ (not starting with a digit, at most 63 characters),"
                            + " optionally schema-qualified as schema.table");
        }
        return name;
    }
}
