package dev.seqgen.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An {@code int} id five values below the {@code int} limit. It asks for a maximum beyond the int range,
 * which seqgen caps; the strategy comes from configuration ({@code seqgen.sequences.int_counter.strategy}).
 */
@Entity
@Table(name = "int_counter")
public class IntCounter {

    @Id
    @GeneratedValue
    @SeqgenGenerator(initialValue = Integer.MAX_VALUE - 4, maxValue = Long.MAX_VALUE - 1)
    private int id;

    int id() {
        return id;
    }
}
