package dev.seqgen.spanner.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/** An entity without seqgen, its id assigned: the other inserts a flush of numbered entities shares. */
@Entity
public class MockVenue {

    @Id
    private Long id;

    private String name;

    protected MockVenue() {
    }

    MockVenue(long id, String name) {
        this.id = id;
        this.name = name;
    }
}
