package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link NumberPattern}: a formatted number made from a counter and read back, and the patterns refused. */
class NumberPatternTest {

    private static final String WHERE = "entity Invoice, property 'number', sequence 'invoice_numbers'";

    @Test
    void formatsAndReadsBack() {
        NumberPattern invoices = NumberPattern.of("INV-{issueDate:year}-{number:6}", List.of("issueDate:year"), WHERE);
        assertThat(invoices.format(List.of("2026"), 42)).isEqualTo("INV-2026-000042");
        assertThat(invoices.format(List.of("2026"), 1_234_567)).as("past the width, in full")
                .isEqualTo("INV-2026-1234567");
        assertThat(invoices.counterOf("INV-2026-000042", List.of("2026"))).isEqualTo(42);
        assertThat(invoices.counterOf("INV-2025-000042", List.of("2026"))).as("another series").isEqualTo(-1);
        assertThat(invoices.counterOf("INV-2026-", List.of("2026"))).isEqualTo(-1);
        assertThat(invoices.counterOf("INV-2026-12x", List.of("2026"))).isEqualTo(-1);
        assertThat(invoices.counterOf(null, List.of("2026"))).isEqualTo(-1);

        NumberPattern slash = NumberPattern.of("{tenant}:{issueDate:year}/{number}", List.of("tenant",
                "issueDate:year"), WHERE);
        assertThat(slash.format(List.of("acme", "2026"), 42)).isEqualTo("acme:2026/42");
        assertThat(slash.counterOf("acme:2026/42", List.of("acme", "2026"))).isEqualTo(42);
        assertThat(NumberPattern.of("{number}", List.of(), WHERE).counterOf("7", List.of())).isEqualTo(7);
    }

    @Test
    void patternsThatCannotBeMadeOrReadBackAreRefusedNamingTheProblem() {
        assertThatThrownBy(() -> NumberPattern.of("INV-{year}-{number}", List.of("issueDate:year"), WHERE))
                .isInstanceOf(SeqgenMappingException.class).hasMessageContaining("{year} is neither {number} nor"
                        + " a part of the series key (issueDate:year)");
        assertThatThrownBy(() -> NumberPattern.of("INV", List.of(), WHERE)).hasMessageContaining("no {number}");
        assertThatThrownBy(() -> NumberPattern.of("{number}-{number}", List.of(), WHERE))
                .hasMessageContaining("{number} more than once");
        assertThatThrownBy(() -> NumberPattern.of("{number}{tenant}", List.of("tenant"), WHERE))
                .hasMessageContaining("followed by a placeholder");
        assertThatThrownBy(() -> NumberPattern.of("{number}7", List.of(), WHERE))
                .hasMessageContaining("followed by a digit");
        assertThatThrownBy(() -> NumberPattern.of("{number:0}", List.of(), WHERE))
                .hasMessageContaining("from 1 to 19");
        assertThatThrownBy(() -> NumberPattern.of("INV-{number", List.of(), WHERE))
                .hasMessageContaining("without its '}'");
        assertThatThrownBy(() -> NumberPattern.of("INV}-{number}", List.of(), WHERE))
                .hasMessageContaining("without its '{'").hasMessageContaining(WHERE);
    }
}
