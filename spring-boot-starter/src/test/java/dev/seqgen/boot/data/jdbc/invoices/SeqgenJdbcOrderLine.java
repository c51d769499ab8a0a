package dev.seqgen.boot.data.jdbc.invoices;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A line of an order: an immutable entity below the root, with a seqgen id. */
@Table
public record SeqgenJdbcOrderLine(@Id @SeqgenValue Long id, String product) {

    public SeqgenJdbcOrderLine withId(Long id) {
        return new SeqgenJdbcOrderLine(id, product);
    }
}
