package dev.seqgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/** The stores both front ends build come out as set up, and a wrong value is refused under its setting's name. */
class JdbcStoreFactoryTest {

    @Test
    void buildsBothStoresAsSetUp() {
        String table = TestDatabase.uniqueTable();
        JdbcStoreFactory factory = JdbcStoreFactory.over(TestDatabase.H2.dataSource()).dedicatedConnection(true)
                .table(table, "my.table").createTable(false).prefix("ids_", "my.prefix");
        try (JdbcSequenceStore tableStore = factory.buildTableStore();
                NativeSequenceStore nativeStore = factory.buildNativeSequenceStore()) {
            assertThat(tableStore.table()).isEqualTo(table);
            assertThat(tableStore.toString()).contains("dedicated connection");
            assertThat(nativeStore.prefix()).isEqualTo("ids_");
        }
    }

    @Test
    void refusesAWrongTableUnderTheSettingThatGaveIt() {
        assertThatThrownBy(() -> JdbcStoreFactory.over(TestDatabase.H2.dataSource()).table("a;drop", "seqgen.table"))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("seqgen.table")
                .hasMessageContaining("'a;drop'");
    }

    @Test
    void refusesAWrongPrefixUnderTheSettingThatGaveIt() {
        assertThatThrownBy(() -> JdbcStoreFactory.over(TestDatabase.H2.dataSource())
                .prefix("9x", "seqgen.jdbc.sequence-prefix"))
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("seqgen.jdbc.sequence-prefix").hasMessageContaining("'9x'");
    }
}
