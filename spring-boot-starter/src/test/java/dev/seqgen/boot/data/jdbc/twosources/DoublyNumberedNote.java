package dev.seqgen.boot.data.jdbc.twosources;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Sequence;
import org.springframework.data.relational.core.mapping.Table;

/** An id that asks both seqgen and Spring Data's @Sequence for its value. */
@Table
public class DoublyNumberedNote {

    @Id
    @SeqgenValue
    @Sequence("doubly_numbered_note_seq")
    private Long id;
}
