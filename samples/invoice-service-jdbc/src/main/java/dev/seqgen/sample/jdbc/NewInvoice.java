package dev.seqgen.sample.jdbc;

import java.math.BigDecimal;
import java.util.List;

/**
 * The body of {@code POST /invoices}.
 *
 * @param customer who is billed
 * @param lines the lines
 */
public record NewInvoice(String customer, List<Line> lines) {

    /**
     * A line of a new invoice.
     *
     * @param product what was sold
     * @param amount what it costs
     */
    public record Line(String product, BigDecimal amount) {
    }

    Invoice toInvoice() {
        return new Invoice(customer, lines == null ? List.of()
                : lines.stream().map(line -> InvoiceLine.of(line.product(), line.amount())).toList());
    }
}
