package dev.seqgen.hibernate.packagelevel;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Served by the package annotation; the sequence name is the entity name in snake_case. */
@Entity
@Table(name = "customer_account")
public class CustomerAccount {

    @Id
    @GeneratedValue
    private Long id;

    public Long getId() {
        return id;
    }
}
