package dev.seqgen.sample.jdbc;

import dev.seqgen.SeqgenValue;
import dev.seqgen.Strategy;

import java.util.ArrayList;
import java.util.List;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * The aggregate root. Its id comes from the sequence {@code invoice} (named by the table) with seqgen's default
 * strategy, async-batch: from the block in hand, no round trip per invoice. Its number comes from
 * {@code invoice_numbers} with the SYNC strategy: taken in the transaction that saves the invoice, so a rollback
 * leaves no gap and committed invoices are numbered exactly 1, 2, 3, ...
 */
@Table
public class Invoice {

    @Id
    @SeqgenValue
    private Long id;

    @SeqgenValue(sequence = "invoice_numbers", strategy = Strategy.SYNC)
    private Long number;

    private String customer;

    /** Entities below the root: Spring Data JDBC writes them with the invoice; each gets a seqgen id too. */
    private List<InvoiceLine> lines = new ArrayList<>();

    /** For Spring Data JDBC. */
    public Invoice() {
    }

    /**
     * A new invoice, without id and number: seqgen sets both when it is saved.
     *
     * @param customer who is billed
     * @param lines its lines, new (no ids)
     */
    public Invoice(String customer, List<InvoiceLine> lines) {
        this.customer = customer;
        this.lines = new ArrayList<>(lines);
    }

    /** @return the id, null before the first save */
    public Long getId() {
        return id;
    }

    /** @return the gapless invoice number, null before the first save */
    public Long getNumber() {
        return number;
    }

    /** @return who is billed */
    public String getCustomer() {
        return customer;
    }

    /**
     * Adds a line; the next save of the invoice gives it an id, and the lines it had keep theirs.
     *
     * @param line a new line (no id)
     */
    public void addLine(InvoiceLine line) {
        List<InvoiceLine> more = new ArrayList<>(lines);
        more.add(line);
        lines = more;
    }

    /** @return the lines */
    public List<InvoiceLine> getLines() {
        return lines;
    }
}
