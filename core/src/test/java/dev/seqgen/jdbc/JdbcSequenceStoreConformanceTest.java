package dev.seqgen.jdbc;

import dev.seqgen.testing.TestDatabase;
import dev.seqgen.testing.conformance.GiveBackContract;
import dev.seqgen.testing.conformance.RowEditedByHandContract;
import dev.seqgen.testing.conformance.StoreUnderTest;
import dev.seqgen.testing.conformance.SyncContract;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** The conformance kit on the JDBC table store, on H2, PostgreSQL and MariaDB (named in each display name). */
@DisplayName("JdbcSequenceStore conformance")
@ParameterizedClass(name = "{0}")
@MethodSource("dev.seqgen.testing.TestDatabase#all")
class JdbcSequenceStoreConformanceTest implements SyncContract, GiveBackContract, RowEditedByHandContract {

    private final TableStoreUnderTest subject;

    JdbcSequenceStoreConformanceTest(TestDatabase database) {
        subject = new TableStoreUnderTest(database);
    }

    @Override
    public StoreUnderTest subject() {
        return subject;
    }
}
