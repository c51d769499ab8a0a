package dev.seqgen.boot.data.jdbc.events;

import dev.seqgen.SeqgenValue;
import dev.seqgen.Strategy;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * A mutable aggregate with a seqgen id, a gapless number and a manual whose id the application copies from the kit's
 * in a {@code BeforeConvertEvent} listener, as spring-data-examples' jdbc/basics does with its lego sets.
 */
@Table
public class EventKit {

    @Id
    @SeqgenValue(sequence = "seqgen_ev_kits")
    private Long id;

    @SeqgenValue(sequence = "seqgen_ev_kit_numbers", strategy = Strategy.SYNC)
    private Long number;

    private String name;

    private EventKitManual manual;

    public EventKit() {
    }

    public EventKit(String name, EventKitManual manual) {
        this.name = name;
        this.manual = manual;
    }

    public Long getId() {
        return id;
    }

    public Long getNumber() {
        return number;
    }

    public EventKitManual getManual() {
        return manual;
    }
}
