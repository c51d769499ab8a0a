package dev.seqgen.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** Like {@link LegacyOrder}, for a database sequence whose increment is not the allocation size. */
@Entity
@Table(name = "mismatched_order")
public class MismatchedOrder {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "hpo_mismatched_seq")
    @SequenceGenerator(name = "hpo_mismatched_seq", sequenceName = "hpo_mismatched_seq", allocationSize = 50)
    private Long id;

    long id() {
        return id;
    }
}
