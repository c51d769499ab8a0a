package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A receipt whose number is formatted ({@code RC-0042}), in one series with the other formatted documents. */
@Entity
@Table(name = "formatted_receipt")
public class FormattedReceipt extends FormattedDocument {

    @SeqgenNumber(sequence = "formatted_document_numbers", strategy = Strategy.SYNC, format = "RC-{number:4}")
    @Column(nullable = false, updatable = false, length = 32)
    private String number;

    protected FormattedReceipt() {
    }

    FormattedReceipt(long id) {
        super(id);
    }

    @Override
    String number() {
        return number;
    }
}
