package dev.seqgen.boot.data.jdbc.invoices;

import dev.seqgen.SeqgenValue;

import java.util.ArrayList;
import java.util.List;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate whose lines, entities below the root, have seqgen ids of their own. */
@Table
public class SeqgenJdbcOrder {

    @Id
    @SeqgenValue
    private Long id;

    private List<SeqgenJdbcOrderLine> lines = new ArrayList<>();

    public Long getId() {
        return id;
    }

    public List<SeqgenJdbcOrderLine> getLines() {
        return lines;
    }
}
