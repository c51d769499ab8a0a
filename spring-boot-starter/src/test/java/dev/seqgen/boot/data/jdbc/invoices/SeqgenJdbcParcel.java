package dev.seqgen.boot.data.jdbc.invoices;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * An entity a delivery holds inside its embedded label, with a seqgen id of its own.
 *
 * @param id the id, given by seqgen
 * @param content the content
 */
@Table
public record SeqgenJdbcParcel(@Id @SeqgenValue Long id, String content) {
}
