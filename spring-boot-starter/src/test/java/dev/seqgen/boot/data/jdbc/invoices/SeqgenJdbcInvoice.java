package dev.seqgen.boot.data.jdbc.invoices;

import dev.seqgen.SeqgenValue;
import dev.seqgen.Strategy;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate with a seqgen id (the default strategy, sequence named by the table) and a gapless number. */
@Table
public class SeqgenJdbcInvoice {

    @Id
    @SeqgenValue
    private Long id;

    @SeqgenValue(sequence = "seqgen_jdbc_invoice_number", strategy = Strategy.SYNC)
    private Long number;

    private String customer;

    public SeqgenJdbcInvoice() {
    }

    public SeqgenJdbcInvoice(String customer) {
        this.customer = customer;
    }

    /**
     * An invoice whose id the application assigned.
     *
     * @param id the id
     * @param customer the customer
     * @return the invoice
     */
    public static SeqgenJdbcInvoice withAssignedId(long id, String customer) {
        SeqgenJdbcInvoice invoice = new SeqgenJdbcInvoice(customer);
        invoice.id = id;
        return invoice;
    }

    public Long getId() {
        return id;
    }

    public Long getNumber() {
        return number;
    }

    public String getCustomer() {
        return customer;
    }

    public void setCustomer(String customer) {
        this.customer = customer;
    }
}
