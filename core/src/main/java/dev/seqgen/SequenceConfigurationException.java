package dev.seqgen;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a setting has a value that is not allowed. The message names the setting, the value and what is
 * allowed, also available separately for frameworks to name their own property; the cause is left open
 * ({@link #initCause}).
 */
public class SequenceConfigurationException extends SequenceException {

    private static final long serialVersionUID = 1L;

    private final String setting;
    private final transient @Nullable Object value;
    private final String allowed;

    /** Creates the exception: setting such as {@code block-size}, allowed such as {@code "an integer >= 1"}. */
    public SequenceConfigurationException(String setting, @Nullable Object value, String allowed) {
        super("invalid value for '" + setting + "': " + value + " (allowed: " + allowed + ")");
        this.setting = setting;
        this.value = value;
        this.allowed = allowed;
    }

    /** {@return the name of the rejected setting} */
    public String setting() {
        return setting;
    }

    /** {@return the rejected value} */
    public @Nullable Object value() {
        return value;
    }

    /** {@return a description of the values that are allowed} */
    public String allowed() {
        return allowed;
    }
}
