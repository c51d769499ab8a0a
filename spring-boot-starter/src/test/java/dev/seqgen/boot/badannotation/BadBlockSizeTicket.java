package dev.seqgen.boot.badannotation;

import dev.seqgen.hibernate.SeqgenGenerator;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity whose {@code @SeqgenGenerator} holds a value seqgen rejects: a block size of 0. */
@Entity
@Table(name = "seqgen_bad_block_size_ticket")
public class BadBlockSizeTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "bad_tickets", blockSize = 0)
    private Long id;

    public Long getId() {
        return id;
    }
}
