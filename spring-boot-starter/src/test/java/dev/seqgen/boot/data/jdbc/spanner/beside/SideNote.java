package dev.seqgen.boot.data.jdbc.spanner.beside;

import dev.seqgen.SeqgenValue;

import org.jspecify.annotations.Nullable;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate on H2 whose ids come from a sequence kept in Cloud Spanner. */
@Table
public record SideNote(@Id @SeqgenValue(sequence = "side_notes") @Nullable Long id, String text) {

    public SideNote withId(Long id) {
        return new SideNote(id, text);
    }
}
