package dev.seqgen.spanner;

import com.google.cloud.spanner.Dialect;
import dev.seqgen.testing.conformance.GiveBackContract;
import dev.seqgen.testing.conformance.RowEditedByHandContract;
import dev.seqgen.testing.conformance.StoreUnderTest;
import dev.seqgen.testing.conformance.SyncContract;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance kit on the Spanner store, on the Cloud Spanner emulator, in a GoogleSQL and a PostgreSQL-dialect
 * database ({@code RETURNING}, {@code $n} parameters and PostgreSQL DDL).
 */
@DisplayName("SpannerSequenceStore conformance on spanner-emulator")
@ParameterizedClass(name = "{0}")
@EnumSource(value = Dialect.class, names = {"GOOGLE_STANDARD_SQL", "POSTGRESQL"})
class SpannerSequenceStoreConformanceEmulatorTest implements SyncContract, GiveBackContract, RowEditedByHandContract {

    @RegisterExtension
    static final SpannerEmulator googleSql = new SpannerEmulator();

    @RegisterExtension
    static final SpannerEmulator postgresql = new SpannerEmulator(Dialect.POSTGRESQL);

    private final EmulatorStoreUnderTest subject;

    SpannerSequenceStoreConformanceEmulatorTest(Dialect dialect) {
        subject = new EmulatorStoreUnderTest(dialect == Dialect.POSTGRESQL ? postgresql : googleSql);
    }

    @Override
    public StoreUnderTest subject() {
        return subject;
    }
}
