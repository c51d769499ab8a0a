package dev.seqgen.boot.slice.kits;

import dev.seqgen.SeqgenValue;
import dev.seqgen.Strategy;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * The slices' aggregate, in a table whose id is an identity column: an id from seqgen (its sequence starts at 1000
 * in the tests) is told apart from one the database generated (1, 2, ...).
 */
@Table
public class SliceKit {

    @Id
    @SeqgenValue
    private Long id;

    @SeqgenValue(strategy = Strategy.SYNC)
    private Long number;

    private String name;

    public SliceKit() {
    }

    public SliceKit(String name) {
        this.name = name;
    }

    public Long getId() {
        return id;
    }

    public Long getNumber() {
        return number;
    }
}
