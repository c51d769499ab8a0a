package dev.seqgen.spanner;

import dev.seqgen.testing.conformance.GiveBackContract;
import dev.seqgen.testing.conformance.RowEditedByHandContract;
import dev.seqgen.testing.conformance.StoreUnderTest;
import dev.seqgen.testing.conformance.SyncContract;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The conformance kit on the Spanner store, on the Cloud Spanner emulator, in a GoogleSQL database. The
 * PostgreSQL-dialect database has a class of its own
 * ({@link SpannerSequenceStoreConformanceOnPostgresqlEmulatorTest}), so that the two can run at once in two test
 * JVMs: a read-write transaction locks its database of the emulator, not the emulator.
 */
@DisplayName("SpannerSequenceStore conformance on spanner-emulator, GoogleSQL")
class SpannerSequenceStoreConformanceOnGoogleSqlEmulatorTest
        implements SyncContract, GiveBackContract, RowEditedByHandContract {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator();

    private final EmulatorStoreUnderTest subject = new EmulatorStoreUnderTest(emulator);

    @Override
    public StoreUnderTest subject() {
        return subject;
    }
}
