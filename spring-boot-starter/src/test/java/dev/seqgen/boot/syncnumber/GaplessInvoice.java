package dev.seqgen.boot.syncnumber;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import dev.seqgen.hibernate.SeqgenNumber;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An invoice whose code declares gapless numbers ({@code @SeqgenNumber(strategy = SYNC)}) and ASYNC ids. */
@Entity
@Table(name = "seqgen_gapless_invoice")
public class GaplessInvoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "gapless_invoice_ids", strategy = Strategy.ASYNC)
    private Long id;

    @SeqgenNumber(sequence = "gapless_invoice_numbers", strategy = Strategy.SYNC)
    private Long number;

    public Long getId() {
        return id;
    }

    public Long getNumber() {
        return number;
    }
}
