package dev.seqgen.spanner.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/** The same invoice without seqgen, its number set by the application: the request counts to compare with. */
@Entity
public class MockPlainInvoice {

    @Id
    private Long id;

    private Long number;

    protected MockPlainInvoice() {
    }

    MockPlainInvoice(long id, long number) {
        this.id = id;
        this.number = number;
    }
}
