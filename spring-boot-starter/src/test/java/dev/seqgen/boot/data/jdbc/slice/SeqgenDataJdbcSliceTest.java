package dev.seqgen.boot.data.jdbc.slice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The Spring Data JDBC slice imports seqgen's auto-configurations: in the slice's embedded database, within the
 * test's transaction, new aggregates get their ids and gapless numbers, and the sequences their rows.
 */
@DataJdbcTest(properties = "spring.sql.init.schema-locations=classpath:dev/seqgen/boot/data/jdbc/slice/schema.sql")
class SeqgenDataJdbcSliceTest {

    @Autowired
    private SliceInvoiceRepository invoices;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void newAggregatesGetTheirIdsAndNumbersInTheSlice() {
        List<SliceInvoice> saved = invoices.saveAll(List.of(new SliceInvoice("a"), new SliceInvoice("b"),
                new SliceInvoice("c")));
        assertThat(saved).extracting(SliceInvoice::getId).containsExactly(1L, 2L, 3L);
        assertThat(saved).extracting(SliceInvoice::getNumber).containsExactly(1L, 2L, 3L);
        assertThat(jdbc.queryForList("SELECT name FROM seqgen_sequences ORDER BY name", String.class))
                .containsExactly("slice_invoice", "slice_invoice_number");
    }

    @SpringBootApplication
    static class Application {
    }
}
