package dev.seqgen.hibernate.packagelevel;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Served by the package annotation; the generator name is the sequence name: {@code orders}. */
@Entity
@Table(name = "purchase_order")
public class PurchaseOrder {

    @Id
    @GeneratedValue(generator = "orders")
    private Long id;

    public Long getId() {
        return id;
    }
}
