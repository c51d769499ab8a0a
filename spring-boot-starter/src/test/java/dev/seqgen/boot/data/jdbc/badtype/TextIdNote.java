package dev.seqgen.boot.data.jdbc.badtype;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A seqgen number on a property that cannot hold it. */
@Table("seqgen_jdbc_text_note")
public class TextIdNote {

    @Id
    private Long id;

    @SeqgenValue
    private String reference;
}
