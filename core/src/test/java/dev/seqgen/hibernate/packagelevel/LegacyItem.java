package dev.seqgen.hibernate.packagelevel;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An explicit JPA strategy keeps Hibernate's own generator. */
@Entity
@Table(name = "legacy_item")
public class LegacyItem {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE)
    private Long id;

    public Long getId() {
        return id;
    }
}
