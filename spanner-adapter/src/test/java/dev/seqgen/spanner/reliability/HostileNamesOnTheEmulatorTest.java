package dev.seqgen.spanner.reliability;

import com.google.cloud.spanner.DatabaseClient;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.spanner.SpannerSequenceStore;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hostile table and sequence names given to the Spanner store: each is rejected with a
 * {@link SequenceConfigurationException} before the {@link DatabaseClient} is asked for anything (so before any
 * RPC, and no SQL is ever built from it); and the longest names seqgen accepts really work on the emulator.
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

    static final List<String> HOSTILE_SEQUENCE_NAMES = List.of(
            "orders'; DELETE FROM seqgen_sequences WHERE true; --",
            "orders\"",
            "orders`",
            "semi;colon",
            "ord\u0435rs", // Cyrillic e
            "orders\u200b",
            "\u202eorders", // right-to-left override
            "orders\uff1b", // fullwidth semicolon
            "orders\u0000",
            "orders\n",
            "",
            "x".repeat(65));

    /** Every call made on the client, counted. */
    private static final AtomicInteger clientCalls = new AtomicInteger();

    /** The emulator's client behind a proxy that counts every call: no call, no RPC. */
    private static DatabaseClient countingClient() {
        DatabaseClient real = emulator.client();
        return (DatabaseClient) Proxy.newProxyInstance(DatabaseClient.class.getClassLoader(),
                new Class<?>[] {DatabaseClient.class}, (proxy, method, args) -> {
                    clientCalls.incrementAndGet();
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @ParameterizedTest(name = "table name [{index}]")
    @FieldSource("HOSTILE_TABLE_NAMES")
    @DisplayName("spanner-emulator: a hostile table name is rejected by the builder before any RPC")
    void aHostileTableNameIsRejectedBeforeAnyRpc(String table) {
        clientCalls.set(0);
        DatabaseClient client = countingClient();
        assertThatThrownBy(() -> SpannerSequenceStore.builder(client).table(table))
                .isInstanceOfSatisfying(SequenceConfigurationException.class,
                        e -> assertThat(e.setting()).isEqualTo("table"));
        assertThat(clientCalls).as("calls on the database client").hasValue(0);
    }

    @ParameterizedTest(name = "sequence name [{index}]")
    @FieldSource("HOSTILE_SEQUENCE_NAMES")
    @DisplayName("spanner-emulator: a hostile sequence name is rejected before any RPC")
    void aHostileSequenceNameIsRejectedBeforeAnyRpc(String name) {
        clientCalls.set(0);
        SpannerSequenceStore store = SpannerSequenceStore.builder(countingClient()).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            assertThatThrownBy(() -> registry.sequence(name)).isInstanceOf(SequenceConfigurationException.class)
                    .hasMessageContaining("sequence name");
        }
        assertThat(clientCalls).as("calls on the database client").hasValue(0);
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
