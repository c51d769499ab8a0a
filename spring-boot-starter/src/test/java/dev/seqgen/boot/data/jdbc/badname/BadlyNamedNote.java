package dev.seqgen.boot.data.jdbc.badname;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A seqgen id whose sequence name is not allowed. */
@Table("seqgen_jdbc_badly_named_note")
public class BadlyNamedNote {

    @Id
    @SeqgenValue(sequence = "notes; drop table")
    private Long id;
}
