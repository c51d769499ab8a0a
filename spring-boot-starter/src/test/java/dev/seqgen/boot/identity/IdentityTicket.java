package dev.seqgen.boot.identity;

import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity of a table made for IDENTITY, adopting seqgen with the annotation only. */
@Entity
@Table(name = "seqgen_identity_ticket")
public class IdentityTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator
    private Long id;

    public Long getId() {
        return id;
    }
}
