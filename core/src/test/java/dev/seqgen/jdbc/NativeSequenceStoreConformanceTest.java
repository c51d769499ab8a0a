package dev.seqgen.jdbc;

import dev.seqgen.testing.TestDatabase;
import dev.seqgen.testing.conformance.StoreContract;
import dev.seqgen.testing.conformance.StoreUnderTest;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** The conformance kit on the native-sequence store, on H2, PostgreSQL and MariaDB (named in each display name). */
@DisplayName("NativeSequenceStore conformance")
@ParameterizedClass(name = "{0}")
@MethodSource("dev.seqgen.testing.TestDatabase#all")
class NativeSequenceStoreConformanceTest implements StoreContract {

    private final NativeStoreUnderTest subject;

    NativeSequenceStoreConformanceTest(TestDatabase database) {
        subject = new NativeStoreUnderTest(database);
    }

    @Override
    public StoreUnderTest subject() {
        return subject;
    }
}
