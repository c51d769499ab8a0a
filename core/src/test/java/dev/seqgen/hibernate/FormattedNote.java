package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A note whose number is formatted ({@code CN-0042}), in one series with the other formatted documents. */
@Entity
@Table(name = "formatted_note")
public class FormattedNote extends FormattedDocument {

    @SeqgenNumber(sequence = "formatted_document_numbers", strategy = Strategy.SYNC, format = "CN-{number:4}")
    @Column(nullable = false, updatable = false, length = 32)
    private String number;

    protected FormattedNote() {
    }

    FormattedNote(long id) {
        super(id);
    }

    @Override
    String number() {
        return number;
    }
}
