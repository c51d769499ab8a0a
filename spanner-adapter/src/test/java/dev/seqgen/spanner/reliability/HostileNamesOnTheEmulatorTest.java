package dev.seqgen.spanner.reliability;

import com.google.cloud.spanner.DatabaseClient;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.spanner.SpannerSequenceStore;
import dev.seqgen.testing.CallCounter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hostile table names given to the Spanner store: each is rejected with a {@link SequenceConfigurationException}
 * before the {@link DatabaseClient} is asked for anything (so before any RPC, and no SQL is ever built from it); and
 * the longest names seqgen accepts really work on the emulator. Hostile sequence names are part of the store
 * conformance kit ({@code StoreContract}), which {@code SpannerSequenceStoreConformanceOn*EmulatorTest} runs.
 */
@DisplayName("hostile names on spanner-emulator")
class HostileNamesOnTheEmulatorTest {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator();

    /** Statement separators, quotes, comments, backticks (Spanner's quoting), look-alike and invisible Unicode. */
    static final List<String> HOSTILE_TABLE_NAMES = List.of(
            "seqgen_sequences; DROP TABLE users",
            "`seqgen_sequences`",
            "seqgen_sequences` WHERE true; --",
            "\"seqgen_sequences\"",
            "seqgen_sequences'",
            "seqgen_sequences--",
            "seqgen_sequences/*",
            "a.b.c",
            ".seqgen_sequences",
            "t\u0430ble", // Cyrillic a
            "täble",
            "t\u200b", // zero-width space
            "t\u0000",
            "t\n",
            "1table",
            "",
            " ",
            "x".repeat(64));

    @ParameterizedTest(name = "table name [{index}]")
    @FieldSource("HOSTILE_TABLE_NAMES")
    @DisplayName("spanner-emulator: a hostile table name is rejected by the builder before any RPC")
    void aHostileTableNameIsRejectedBeforeAnyRpc(String table) {
        CallCounter counter = new CallCounter();
        DatabaseClient client = counter.counting(DatabaseClient.class, emulator.client());
        assertThatThrownBy(() -> SpannerSequenceStore.builder(client).table(table))
                .isInstanceOfSatisfying(SequenceConfigurationException.class,
                        e -> assertThat(e.setting()).isEqualTo("table"));
        assertThat(counter.calls()).as("calls on the database client").isZero();
    }

    @Test
    @DisplayName("spanner-emulator: the longest accepted names work: a 63-character table, 64-character sequence"
            + " names, and '--' inside a name is just two characters")
    void theLongestAcceptedNamesWork() {
        String table = "t".repeat(62) + "1";
        String name = "n".repeat(63) + "-";
        SpannerSequenceStore store = emulator.store(table);
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.ASYNC).acquireTimeout(SpannerEmulator.PATIENCE)
                        .build()).build()) {
            assertThat(registry.sequence(name).next()).isEqualTo(1);
            assertThat(registry.sequence(name.substring(1)).next()).as("a different row").isEqualTo(1);
            assertThat(registry.sequence("orders--").next()).isEqualTo(1);
            assertThat(store.nextValue(name)).hasValue(2);
        }
    }
}
