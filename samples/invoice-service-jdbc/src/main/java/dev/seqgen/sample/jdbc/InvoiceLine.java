package dev.seqgen.sample.jdbc;

import dev.seqgen.SeqgenValue;

import java.math.BigDecimal;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * A line of an invoice, an immutable entity inside the aggregate. Its id comes from the sequence
 * {@code invoice_line} (its table), default strategy; seqgen sets it through {@link #withId} when the line has none,
 * and a line that has one keeps it when Spring Data JDBC rewrites the lines at a later save of the invoice.
 *
 * @param id the id, null until the invoice is saved
 * @param product what was sold
 * @param amount what it costs
 */
@Table
public record InvoiceLine(@Id @SeqgenValue Long id, String product, BigDecimal amount) {

    /**
     * A new line, without id.
     *
     * @param product what was sold
     * @param amount what it costs
     * @return the line
     */
    public static InvoiceLine of(String product, BigDecimal amount) {
        return new InvoiceLine(null, product, amount);
    }

    /**
     * The wither seqgen sets the id through.
     *
     * @param id the id
     * @return this line with that id
     */
    public InvoiceLine withId(Long id) {
        return new InvoiceLine(id, product, amount);
    }
}
