package dev.seqgen.sample.orders;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * An invoice as the API shows it: {@code number} is the formatted number ({@code INV-ACME-2026-000042}) from the
 * {@code sync} sequence {@code invoices}, in the series of its company and issue year; {@code counter} the
 * number within that series (42), 1, 2, 3, ... without a hole.
 */
public record InvoiceView(String number, long counter, String company, LocalDate issueDate, long orderId,
        BigDecimal total, Instant issuedAt) {

    static InvoiceView of(Invoice invoice) {
        return new InvoiceView(invoice.getNumber(), invoice.getCounter(), invoice.getCompany(),
                invoice.getIssueDate(), invoice.getOrder().getId(), invoice.getTotal(), invoice.getIssuedAt());
    }
}
