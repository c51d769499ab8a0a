package dev.seqgen.hibernate;

import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/** What {@link FormattedNote} and {@link FormattedReceipt} share: an assigned id. */
@MappedSuperclass
public abstract class FormattedDocument {

    @Id
    private Long id;

    protected FormattedDocument() {
    }

    FormattedDocument(long id) {
        this.id = id;
    }

    /** @return the formatted number */
    abstract String number();
}
