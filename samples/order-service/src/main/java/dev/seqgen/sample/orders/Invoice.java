package dev.seqgen.sample.orders;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import dev.seqgen.hibernate.SeqgenNumber;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OneToOne;
import jakarta.persistence.Table;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * An invoice, at most one per order, issued by a company on an issue date. Its id is a surrogate from
 * {@code async-batch}; its number, the one printed on it, comes from {@code sync} through {@link SeqgenNumber}, in
 * a series per issuing company and year of the issue date ({@code invoices#ACME/2026}), formatted as
 * {@code INV-ACME-2026-000042}: the series' row is incremented on the session's own connection right before the
 * invoice's INSERT, at flush, inside the transaction that inserts it. A rolled-back invoice rolls its number back
 * too, so each company's committed numbers of a year are 1, 2, 3, ... without a hole, and a new year starts at 1
 * again; the row is locked only from the flush to the commit, not for the whole transaction. The year is the issue
 * date's, not the clock's: an invoice dated 31 December and saved on 2 January belongs to the old year.
 */
@Entity
@Table(name = "invoices")
public class Invoice {

    /** What a company code may be: it stands in the formatted number and in the series key. */
    static final String COMPANY = "[A-Z0-9]{2,10}";

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "invoice_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    /** The issuing company's code: 2 to 10 of A-Z and 0-9 ({@link #COMPANY}). */
    @Column(nullable = false, length = 10, updatable = false)
    private String company;

    @Column(nullable = false, updatable = false)
    private LocalDate issueDate;

    /**
     * {@code INV-<company>-<year>-<counter, 6 digits>}: unique across companies and years, which the unique
     * constraint guards.
     */
    @SeqgenNumber(sequence = "invoices", strategy = Strategy.SYNC, seriesBy = { "company", "issueDate:year" },
            format = "INV-{company}-{issueDate:year}-{number:6}")
    @Column(nullable = false, unique = true, updatable = false, length = 40)
    private String number;

    @OneToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "order_id", nullable = false, unique = true)
    private Order order;

    @Column(nullable = false, precision = 14, scale = 2)
    private BigDecimal total;

    @Column(nullable = false)
    private Instant issuedAt;

    protected Invoice() {
    }

    Invoice(Order order, String company, LocalDate issueDate, BigDecimal total, Instant issuedAt) {
        this.order = order;
        this.company = company;
        this.issueDate = issueDate;
        this.total = total;
        this.issuedAt = issuedAt;
    }

    Long getId() {
        return id;
    }

    /** The formatted invoice number ({@code INV-ACME-2026-000042}): null until the invoice's insert was flushed. */
    String getNumber() {
        return number;
    }

    /**
     * The counter of the invoice's series under the formatted number (42 in {@code INV-ACME-2026-000042}): the
     * digits after the pattern's last {@code -}.
     */
    long getCounter() {
        return Long.parseLong(number.substring(number.lastIndexOf('-') + 1));
    }

    String getCompany() {
        return company;
    }

    LocalDate getIssueDate() {
        return issueDate;
    }

    Order getOrder() {
        return order;
    }

    BigDecimal getTotal() {
        return total;
    }

    Instant getIssuedAt() {
        return issuedAt;
    }
}
