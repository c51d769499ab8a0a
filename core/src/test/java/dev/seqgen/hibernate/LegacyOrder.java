package dev.seqgen.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** An existing mapping, unchanged: Hibernate's sequence generator with an allocation size of 50. */
@Entity
@Table(name = "legacy_order")
public class LegacyOrder {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "hpo_legacy_order_seq")
    @SequenceGenerator(name = "hpo_legacy_order_seq", sequenceName = "hpo_legacy_order_seq", allocationSize = 50)
    private Long id;

    long id() {
        return id;
    }
}
