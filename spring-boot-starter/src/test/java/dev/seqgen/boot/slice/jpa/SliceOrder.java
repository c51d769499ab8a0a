package dev.seqgen.boot.slice.jpa;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import dev.seqgen.hibernate.SeqgenNumber;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.PostPersist;
import jakarta.persistence.PrePersist;
import jakarta.persistence.Transient;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An entity with a seqgen id and a gapless seqgen number that records what its JPA callbacks see of them. */
@Entity
public class SliceOrder {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "slice_orders")
    private Long id;

    @SeqgenNumber(sequence = "slice_order_numbers", strategy = Strategy.SYNC)
    @Column(nullable = false, updatable = false, unique = true)
    private Long number;

    /** Id and number as {@code @PrePersist} saw them. */
    @Transient
    private final List<List<Long>> prePersist = new ArrayList<>();

    /** Id and number as {@code @PostPersist} saw them. */
    @Transient
    private final List<List<Long>> postPersist = new ArrayList<>();

    @PrePersist
    void prePersist() {
        prePersist.add(Arrays.asList(id, number));
    }

    @PostPersist
    void postPersist() {
        postPersist.add(Arrays.asList(id, number));
    }

    public Long getId() {
        return id;
    }

    public Long getNumber() {
        return number;
    }

    public List<List<Long>> seenAtPrePersist() {
        return prePersist;
    }

    public List<List<Long>> seenAtPostPersist() {
        return postPersist;
    }
}
