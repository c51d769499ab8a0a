package dev.seqgen.boot.slice.kits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/** What every slice test asserts after saving kits: the ids and numbers came from seqgen. */
public final class SliceKitAssertions {

    /** The slices' properties: the id's sequence starts at 1000, the identity column at 1. */
    public static final String INITIAL_VALUE = "seqgen.sequences.slice_kit.initial-value=1000";

    /** The schema: the kits' table, its id an identity column. */
    public static final String SCHEMA = "spring.sql.init.schema-locations=classpath:dev/seqgen/boot/slice/schema.sql";

    private SliceKitAssertions() {
    }

    /** Saves three kits and asserts that seqgen gave them their ids and numbers. */
    public static void savedWithSeqgensValues(SliceKitRepository kits, JdbcTemplate jdbc) {
        List<SliceKit> saved = kits.saveAll(List.of(new SliceKit("a"), new SliceKit("b"), new SliceKit("c")));
        assertThat(saved).extracting(SliceKit::getId).as("from seqgen's sequence, not the identity column")
                .containsExactly(1000L, 1001L, 1002L);
        assertThat(saved).extracting(SliceKit::getNumber).containsExactly(1L, 2L, 3L);
        assertThat(jdbc.queryForList("SELECT id FROM slice_kit ORDER BY id", Long.class))
                .containsExactly(1000L, 1001L, 1002L);
        assertThat(jdbc.queryForObject("SELECT next_value FROM seqgen_sequences WHERE name = 'slice_kit_number'",
                Long.class)).as("the gapless sequence's row moved").isEqualTo(4);
        assertThat(jdbc.queryForObject("SELECT next_value FROM seqgen_sequences WHERE name = 'slice_kit'", Long.class))
                .as("a block reserved from the id's row").isGreaterThan(1002);
    }
}
