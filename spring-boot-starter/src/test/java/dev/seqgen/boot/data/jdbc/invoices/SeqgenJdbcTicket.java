package dev.seqgen.boot.data.jdbc.invoices;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An immutable aggregate with an {@code int} id, set through its wither. */
@Table
public record SeqgenJdbcTicket(@Id @SeqgenValue(sequence = "seqgen_jdbc_tickets") int id, String note) {

    public SeqgenJdbcTicket withId(int id) {
        return new SeqgenJdbcTicket(id, note);
    }
}
