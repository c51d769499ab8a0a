package dev.seqgen.spanner;

import com.google.cloud.spanner.Dialect;
import dev.seqgen.testing.conformance.GiveBackContract;
import dev.seqgen.testing.conformance.RowEditedByHandContract;
import dev.seqgen.testing.conformance.StoreUnderTest;
import dev.seqgen.testing.conformance.SyncContract;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The conformance kit on the Spanner store, on the Cloud Spanner emulator, in a PostgreSQL-dialect database
 * ({@code RETURNING}, {@code $n} parameters and PostgreSQL DDL).
 */
@DisplayName("SpannerSequenceStore conformance on spanner-emulator, PostgreSQL dialect")
class SpannerSequenceStoreConformanceOnPostgresqlEmulatorTest
        implements SyncContract, GiveBackContract, RowEditedByHandContract {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator(Dialect.POSTGRESQL);

    private final EmulatorStoreUnderTest subject = new EmulatorStoreUnderTest(emulator);

    @Override
    public StoreUnderTest subject() {
        return subject;
    }
}
