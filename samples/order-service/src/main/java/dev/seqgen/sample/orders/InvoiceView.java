package dev.seqgen.sample.orders;

import java.math.BigDecimal;
import java.time.Instant;

/** An invoice as the API shows it; {@code number} comes from the {@code sync} sequence {@code invoices}. */
public record InvoiceView(long number, long orderId, BigDecimal total, Instant issuedAt) {

    static InvoiceView of(Invoice invoice) {
        return new InvoiceView(invoice.getNumber(), invoice.getOrder().getId(), invoice.getTotal(),
                invoice.getIssuedAt());
    }
}
