package dev.seqgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/**
 * The stores both front ends build come out as their builders were set up, and a wrong table name or prefix is
 * refused under the name of the setting that gave it.
 */
class StoreBuildersTest {

    @Test
    void buildsBothStoresAsSetUp() {
        String table = TestDatabase.uniqueTable();
        try (JdbcSequenceStore tableStore = JdbcSequenceStore.builder(TestDatabase.H2.dataSource())
                .dedicatedConnection(true).table(table, "my.table").createTable(false).build();
                NativeSequenceStore nativeStore = NativeSequenceStore.builder(TestDatabase.H2.dataSource())
                        .dedicatedConnection(true).prefix("ids_", "my.prefix").build()) {
            assertThat(tableStore.table()).isEqualTo(table);
            assertThat(tableStore.toString()).contains("dedicated connection");
            assertThat(nativeStore.prefix()).isEqualTo("ids_");
        }
    }

    @Test
    void refusesAWrongTableUnderTheSettingThatGaveIt() {
        assertThatThrownBy(() -> JdbcSequenceStore.builder(TestDatabase.H2.dataSource())
                .table("a;drop", "seqgen.table"))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("seqgen.table")
                .hasMessageContaining("'a;drop'");
    }

    @Test
    void refusesAWrongPrefixUnderTheSettingThatGaveIt() {
        assertThatThrownBy(() -> NativeSequenceStore.builder(TestDatabase.H2.dataSource())
                .prefix("9x", "seqgen.jdbc.sequence-prefix"))
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("seqgen.jdbc.sequence-prefix").hasMessageContaining("'9x'");
    }
}
