package dev.seqgen.boot.data.jdbc.events;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An immutable aggregate: seqgen sets its id through its wither, which replaces it. */
@Table
public record EventVoucher(@Id @SeqgenValue(sequence = "seqgen_ev_vouchers") Long id, String note) {

    public EventVoucher withId(Long id) {
        return new EventVoucher(id, note);
    }
}
