package dev.seqgen.spi;

import dev.seqgen.SequenceConfigurationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdentifiersTest {

    @ParameterizedTest
    @ValueSource(strings = {"orders", "invoice_numbers", "tenant-7.orders", "A1", "_x"})
    void acceptsPlainSequenceNames(String name) {
        assertThat(Identifiers.requireSequenceName(name)).isEqualTo(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "orders'; DROP TABLE t; --", "a\"b", "semi;colon", "ünïcödé", "tab\tname",
            "-leading-dash", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
    void rejectsHostileSequenceNames(String name) {
        assertThatThrownBy(() -> Identifiers.requireSequenceName(name))
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("sequence name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"seqgen_sequences", "app.seqgen_sequences", "T"})
    void acceptsPlainTableNames(String name) {
        assertThat(Identifiers.requireTableName("table", name)).isEqualTo(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1table", "t; DROP TABLE x", "t\"", "t'", "a.b.c", "täble", "t-1", "t name",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
    void rejectsHostileTableNames(String name) {
        assertThatThrownBy(() -> Identifiers.requireTableName("seqgen.table", name))
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("'seqgen.table'");
    }
}
